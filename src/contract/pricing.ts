import { z } from "zod";
import { hasAtMostTwoDecimals, nestedIdParams, pagingQuery } from "./common";
import { requiredName, text } from "./text";

/**
 * Quantity breaks ("from 10 units on, $11.00 each"), the one shape and set of rules for both a
 * price list's entries (docs/pricing.md) and a product's public breaks (docs/pricing.md).
 * Money on the wire in currency units; stored in integer minor units, sorted by minQty.
 */

export const MAX_BREAKS = 10;
const MAX_BREAK_QTY = 10_000_000;
/** Every price on the wire is below this (the catalog's and the price lists' ceiling). */
export const MAX_LIST_PRICE = 1_000_000;

/** An amount of money in currency units (12.5 = $12.50), as every price on the wire. */
export const moneySchema = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} must be 0 or more`)
    .lt(MAX_LIST_PRICE, `${label} must be less than 1,000,000`)
    .refine(hasAtMostTwoDecimals, `${label}: use at most 2 decimals`);

export const priceBreakMessages = {
  breaksOrder: "Each break needs its own minimum quantity",
  breakCheaper: "A quantity break must be cheaper than the unit price",
  breaksForm: "Write breaks as QTY:PRICE|QTY:PRICE, e.g. 10:11.00|50:9.80",
} as const;

export const priceBreakSchema = z.strictObject({
  minQty: z
    .number({ error: "Minimum quantity must be a number" })
    .int("Minimum quantity must be a whole number")
    .min(2, "A break starts at 2 units or more")
    .max(MAX_BREAK_QTY, "Minimum quantity is too large"),
  unitPrice: moneySchema("Break price"),
});
export type PriceBreakInput = z.infer<typeof priceBreakSchema>;

/** Up to `MAX_BREAKS` breaks, each minQty once (any order: they are stored sorted). */
export const priceBreaksSchema = z
  .array(priceBreakSchema, { error: "Breaks must be a list" })
  .max(MAX_BREAKS, `At most ${MAX_BREAKS} breaks`)
  .refine((breaks) => new Set(breaks.map((b) => b.minQty)).size === breaks.length, {
    message: priceBreakMessages.breaksOrder,
  });

/** Whether every break is cheaper than the unit price it lowers (the list or entry price). */
export const breaksCheaperThan = (breaks: readonly PriceBreakInput[], unitPrice: number) =>
  breaks.every((b) => b.unitPrice < unitPrice);

/** `10:11.00|50:9.80` → breaks (wire units); throws `breaksForm`-like words for people. */
export function parseBreaksText(text: string): PriceBreakInput[] {
  if (text.trim() === "") return [];
  return text.split("|").map((part) => {
    const m = /^\s*(\d+)\s*:\s*(\d+(?:\.\d{1,2})?)\s*$/.exec(part);
    if (!m) throw new Error(`"${part.trim()}" is not QTY:PRICE (breaks are like 10:11.00|50:9.80)`);
    return { minQty: Number(m[1]), unitPrice: Number(m[2]) };
  });
}

/** Breaks as `10:11.00|50:9.80` (the CSV cell and the admin forms' text). */
export const breaksText = (breaks: readonly PriceBreakInput[]) =>
  breaks.map((b) => `${b.minQty}:${b.unitPrice.toFixed(2)}`).join("|");

/** Trade price lists (admin): per product, a unit price and quantity breaks. Money in currency units. */

export const MAX_PRICE_LIST_CSV_BYTES = 5 * 1024 * 1024;

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

const priceListName = requiredName(100);

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

export const priceListEntryParamsSchema = nestedIdParams("productId");

export const searchPagingQuerySchema = pagingQuery(50).extend({
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
  /** The caller's price for one minimum order (their group's rule, their company's list, breaks). */
  yourPrice: z.number(),
  /** Whether the caller's company price list prices this product. */
  companyPrice: z.boolean(),
  /** Said beside the price when the caller's group rule gave it: "Garage price: 20 % off brakes". */
  priceNote: z.string().nullable(),
  /** The caller's minimum order: the part's retail minimum, or its trade minimum for trade. */
  minimumOrder: z.number(),
  /** The caller's pack size: a trade buyer orders in multiples of it (1: any quantity). */
  packSize: z.number(),
  /** From each quantity on, the unit price (the first row is the minimum order). */
  breaks: z.array(z.object({ minQty: z.number(), unitPrice: z.number() })),
});
export type ProductPrice = z.infer<typeof productPriceSchema>;
