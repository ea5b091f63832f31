import { z } from "zod";
import { MAX_OFFSET, MAX_PAGE_SIZE } from "./constants";

/** Every error the API answers has this shape (DESIGN section 3). */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/**
 * A page of a list as asked for: `limit` rows (at most `maxLimit`; none given: `defaultLimit`)
 * from row `offset` (at most `maxOffset`).
 */
export const pagingQuery = (
  defaultLimit: number,
  {
    maxLimit = MAX_PAGE_SIZE,
    maxOffset = MAX_OFFSET,
  }: { maxLimit?: number; maxOffset?: number } = {},
) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    offset: z.coerce.number().int().min(0).max(maxOffset).default(0),
  });

export const pagingQuerySchema = pagingQuery(24);

/** A uuid in a path or a query (`/api/companies/{id}`), refused as "Malformed id". */
export const idParam = () => z.uuid({ message: "Malformed id" });

export const idParamsSchema = z.object({
  id: idParam(),
});

/**
 * A path naming a thing and one of its own (`/api/returns/{id}/photos/{photoId}`): both uuids,
 * refused as "Malformed id".
 */
export const nestedIdParams = <K extends string>(key: K) =>
  idParamsSchema.extend({ [key]: idParam() } as Record<K, ReturnType<typeof idParam>>);
