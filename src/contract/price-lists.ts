import { z } from "zod";
import { MAX_OFFSET, MAX_PAGE_SIZE } from "./constants";
import {
  breaksCheaperThan,
  moneySchema,
  priceBreakMessages,
  priceBreaksSchema,
} from "./price-breaks";
import { text } from "./text";

/** Trade price lists (admin): per product, a unit price and quantity breaks. Money in currency units. */

export const MAX_PRICE_LIST_CSV_BYTES = 5 * 1024 * 1024;
export { MAX_BREAKS, MAX_LIST_PRICE, moneySchema, priceBreakSchema } from "./price-breaks";
export type { PriceBreakInput } from "./price-breaks";

export const priceListMessages = {
  breaksOrder: priceBreakMessages.breaksOrder,
  breakCheaper: priceBreakMessages.breakCheaper,
  otherCurrency: (currency: string) => `A price list must be in the store's currency (${currency})`,
  nameTaken: "A price list with this name exists already",
  inUse: "Companies use this price list: give them another one first",
  notFound: "Price list not found",
} as const;

export const priceListEntryInputSchema = z
  .strictObject({
    unitPrice: moneySchema("Unit price"),
    breaks: priceBreaksSchema.default([]),
  })
  .refine((entry) => breaksCheaperThan(entry.breaks, entry.unitPrice), {
    path: ["breaks"],
    message: priceListMessages.breakCheaper,
  });
export type PriceListEntryInput = z.input<typeof priceListEntryInputSchema>;

export const priceListEntrySchema = z.object({
  productId: z.uuid(),
  partNumber: z.string(),
  productName: z.string(),
  /** The catalog's price, for comparison. */
  listPrice: z.number(),
  unitPrice: z.number(),
  /** Sorted by minQty. */
  breaks: z.array(z.object({ minQty: z.number(), unitPrice: z.number() })),
});
export type PriceListEntry = z.infer<typeof priceListEntrySchema>;

const priceListName = text({ error: "Name is Required" })
  .trim()
  .min(1, "Name is Required")
  .max(100, "Must be 100 characters or shorter");

export const priceListCreateSchema = z.strictObject({
  name: priceListName,
  /** Defaults to the store's; another one is refused (400). */
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "Currency is a 3-letter ISO code")
    .transform((c) => c.toUpperCase())
    .optional(),
});
export type PriceListCreate = z.input<typeof priceListCreateSchema>;

export const priceListUpdateSchema = z.strictObject({ name: priceListName });

export const priceListSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  currency: z.string(),
  entryCount: z.number(),
  companyCount: z.number(),
  createdAt: z.string(),
});
export type PriceList = z.infer<typeof priceListSchema>;

export const priceListEntryParamsSchema = z.object({
  id: z.uuid({ message: "Malformed id" }),
  productId: z.uuid({ message: "Malformed id" }),
});

export const searchPagingQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  q: text().trim().max(100, "Search is at most 100 characters").optional(),
});

/** The CSV of a list's entries: `part_number,unit_price,breaks` (breaks as `10:11.00|50:9.80`). */
export const PRICE_LIST_CSV_HEADER = ["part_number", "unit_price", "breaks"] as const;

export const priceListImportSchema = z.strictObject({
  csv: z.string().max(MAX_PRICE_LIST_CSV_BYTES, "The file is larger than 5 MB"),
  /** Remove the entries whose part is not in the file (the file becomes the whole list). */
  replace: z.boolean().default(false),
});
export type PriceListImport = z.input<typeof priceListImportSchema>;

export const priceListImportResultSchema = z.object({
  imported: z.number(),
  removed: z.number(),
});

/** `GET /api/products/{id}/price`: what one unit costs the caller, and their breaks. */
export const productPriceSchema = z.object({
  productId: z.uuid(),
  currency: z.string(),
  listPrice: z.number(),
  /** The caller's price for one minimum order (the list price for anyone without a company). */
  yourPrice: z.number(),
  /** Whether the caller's company price list prices this product. */
  companyPrice: z.boolean(),
  /** From each quantity on, the unit price (the first row is the minimum order). */
  breaks: z.array(z.object({ minQty: z.number(), unitPrice: z.number() })),
});
export type ProductPrice = z.infer<typeof productPriceSchema>;
