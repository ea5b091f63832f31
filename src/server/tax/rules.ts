/**
 * Tax as pure functions (docs/money.md). Catalog prices are net of tax. One rate applies to an
 * order: its region's where the region has one, else its country's, else none. Tax is computed
 * per line on the line's net total (unit price × quantity) and on the shipping price, each
 * rounded half up to a whole minor unit; the order's tax is the sum of those roundings.
 */

export interface TaxRateRule {
  id: string;
  country: string;
  /** "" for the whole country. */
  region: string;
  name: string;
  /** Thousandths of a percent: 8.875 % is 8875. */
  rateMillipercent: number;
  appliesToShipping: boolean;
}

/** 100 % in thousandths of a percent. */
const WHOLE = 100_000;

/** The rate for a place: the region's own, else the country's, else none. */
export function rateFor(
  rates: readonly TaxRateRule[],
  place: { country: string; region: string | null },
): TaxRateRule | null {
  const region = place.region?.trim().toUpperCase() ?? "";
  let countryWide: TaxRateRule | null = null;
  for (const rate of rates) {
    if (rate.country !== place.country) continue;
    if (rate.region === "") countryWide = rate;
    else if (region !== "" && rate.region.toUpperCase() === region) return rate;
  }
  return countryWide;
}

/**
 * The tax on an amount in minor units, rounded half up: 1.005 cents becomes 1, 1.5 becomes 2.
 * Integer arithmetic only (amounts up to 2^31 cents at up to 100 % stay below 2^53).
 */
export function taxOnCents(cents: number, rateMillipercent: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`bad amount: ${cents}`);
  return Math.floor((cents * rateMillipercent + WHOLE / 2) / WHOLE);
}

export interface OrderTax {
  /** Each line's tax, in the order given. */
  lines: number[];
  shipping: number;
  /** lines + shipping. */
  total: number;
}

/** The tax of an order's lines (their net totals) and its shipping price, at one rate. */
export function taxOrder(
  lineTotalsCents: readonly number[],
  shippingCents: number,
  rate: TaxRateRule | null,
): OrderTax {
  if (!rate) return { lines: lineTotalsCents.map(() => 0), shipping: 0, total: 0 };
  const lines = lineTotalsCents.map((c) => taxOnCents(c, rate.rateMillipercent));
  const shipping = rate.appliesToShipping ? taxOnCents(shippingCents, rate.rateMillipercent) : 0;
  return { lines, shipping, total: lines.reduce((a, b) => a + b, 0) + shipping };
}

/** A percentage on the wire (8.875) from thousandths of a percent, and back. */
export const percentFromMilli = (milli: number) => milli / 1000;
export const milliFromPercent = (percent: number) => Math.round(percent * 1000);
