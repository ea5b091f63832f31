import { z } from "zod";

/**
 * Quantity breaks ("from 10 units on, $11.00 each"), the one shape and set of rules for both a
 * price list's entries (docs/trade.md) and a product's public breaks (docs/public-breaks.md).
 * Money on the wire in currency units; stored in integer minor units, sorted by minQty.
 */

export const MAX_BREAKS = 10;
const MAX_BREAK_QTY = 10_000_000;
/** Every price on the wire is below this (the catalog's and the price lists' ceiling). */
export const MAX_LIST_PRICE = 1_000_000;

const hasAtMostTwoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

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
