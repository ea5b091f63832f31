import { z } from "zod";
import { pagingQuerySchema } from "./common";
import { productSorts } from "./constants";

/** A product as the public API shows it. `price` is in currency units (e.g. 89.99). */
export const productSchema = z.object({
  _id: z.uuid(),
  img: z.string(),
  name: z.string(),
  price: z.number(),
  minimumOrder: z.number().int(),
  availableQuantity: z.number().int(),
  shortDescription: z.string(),
  /** Warranty in months. */
  warranty: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type Product = z.infer<typeof productSchema>;

export const productListQuerySchema = pagingQuerySchema.extend({
  sort: z.enum(productSorts).default("newest"),
  q: z.string().trim().max(100).optional(),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;
