import { z } from "zod";
import { MAX_OFFSET, MAX_PAGE_SIZE } from "./constants";

/** Every error the API answers has this shape (DESIGN section 3). */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const pagingQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(24),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
});

export const idParamsSchema = z.object({
  id: z.uuid({ message: "Malformed id" }),
});
