/**
 * The one place a price is decided (DESIGN.md section 7). Every line the store prices for a
 * customer goes through `priceLines`: the cart, checkout and the single-product order today;
 * quick order, quotes and invoices when they come. Today it knows list prices only; a company's
 * price list and quantity breaks will be a per-customer overlay here, and every caller gets them
 * without changing.
 */

import type { DbOrTx } from "../db/database";

/** Whose prices: the caller (a customer, or a visitor with none). */
export interface PricingContext {
  customerId?: string;
  currency: string;
}

/**
 * The pricing context for a caller, read once per request or transaction and then passed to
 * `priceLines` for every line. Callers always get it here, so that a company's prices (an
 * overlay this function will load) reach every caller without changing them.
 */
export async function pricingFor(
  _db: DbOrTx,
  customerId: string | undefined,
  currency: string,
): Promise<PricingContext> {
  return customerId ? { customerId, currency } : { currency };
}

/** A line to price: the product's list price as stored, and how many. */
export interface LineToPrice {
  productId: string;
  qty: number;
  listPriceCents: number;
}

export interface PricedLine extends LineToPrice {
  /** What one unit costs this customer, in minor units (integers only). */
  unitPriceCents: number;
  /** unitPriceCents × qty. */
  lineTotalCents: number;
}

/** Prices each line for the caller: the lowest price that applies (now: the list price). */
export function priceLines(_context: PricingContext, lines: LineToPrice[]): PricedLine[] {
  return lines.map((line) => {
    const unitPriceCents = line.listPriceCents;
    return { ...line, unitPriceCents, lineTotalCents: unitPriceCents * line.qty };
  });
}
