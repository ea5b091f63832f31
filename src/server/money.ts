import type { PriceBreakInput } from "../contract/pricing";

/** Money is stored in minor units (cents); the API shows currency units. */
export const centsToUnits = (cents: number): number => cents / 100;
export const unitsToCents = (units: number): number => Math.round(units * 100);

/** An amount as people read it in messages: `$1,234.50`. */
export const formatCents = (cents: number, currency: string): string =>
  currencyFormat(currency).format(cents / 100);

/** One formatter per currency: making an Intl formatter costs far more than using it. */
const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string): Intl.NumberFormat {
  let format = currencyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    currencyFormats.set(currency, format);
  }
  return format;
}

/** The largest amount the database's money columns (integer cents) hold: 21,474,836.47. */
export const MAX_CENTS = 2_147_483_647;

/** A quantity break of a price list entry: from `minQty` units on, each costs `unitPriceCents`. */
export interface PriceBreak {
  minQty: number;
  unitPriceCents: number;
}

/** Checked wire breaks (currency units) as stored: integer minor units, sorted by minQty. */
export function storedBreaks(breaks: readonly PriceBreakInput[]): PriceBreak[] {
  return breaks
    .map((b) => ({ minQty: b.minQty, unitPriceCents: unitsToCents(b.unitPrice) }))
    .sort((a, b) => a.minQty - b.minQty);
}

/** Stored breaks on the wire (currency units). */
export function wireBreaks(breaks: readonly PriceBreak[]): PriceBreakInput[] {
  return breaks.map((b) => ({ minQty: b.minQty, unitPrice: centsToUnits(b.unitPriceCents) }));
}
