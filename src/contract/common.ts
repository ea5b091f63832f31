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

/** Beside a settings form while no admin has saved its settings. */
export const DEFAULTS_IN_FORCE = "Not saved yet: these are the store's defaults.";

/** A number of money with at most two decimals (12.5, 12.50; not 12.505). */
export const hasAtMostTwoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

/** A whole number from `min` to `max`: anything else is refused with the one `message`. */
export const wholeNumber = (message: string, min: number, max: number) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

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

/** A day as `2027-01-31` (UTC), or null/absent for none (a form sends null for an empty box). */
export const optionalDaySchema = z.iso
  .date({ message: "Use a date like 2027-01-31" })
  .nullable()
  .optional();

export const DATES_ORDER_MESSAGE = "The end date cannot be before the start date";

/** The days a rule runs (a discount code's, a price rule's): from `startsOn` to `endsOn`, either open. */
export const dateRangeFields = { startsOn: optionalDaySchema, endsOn: optionalDaySchema };

/** The same days as answers carry them (null: open). */
export const dateRangeAnswerFields = {
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
};

/** A range's end may not come before its start (said at `endsOn`). */
export function refineDateRange(
  range: { startsOn?: string | null; endsOn?: string | null },
  ctx: z.RefinementCtx,
): void {
  if (range.startsOn && range.endsOn && range.endsOn < range.startsOn) {
    ctx.addIssue({ code: "custom", path: ["endsOn"], message: DATES_ORDER_MESSAGE });
  }
}
