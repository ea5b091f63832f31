/**
 * Tax as pure functions (docs/tax.md). Catalog prices are net of tax. One rate applies to an
 * order: its region's where the region has one, else its country's, else none. Tax is computed
 * per line on the line's net total (unit price × quantity) and on the shipping price, each
 * rounded half up to a whole minor unit; the order's tax is the sum of those roundings.
 */

import { normalizePostalCode, parsePostalPattern } from "../../contract/tax";
import { isEuCountry } from "../../contract/vat-ids";

export interface TaxRateRule {
  id: string;
  country: string;
  /** "" for the whole country. */
  region: string;
  /** "" (or absent) for the whole region; else a code, a prefix or a range (contract/tax.ts). */
  postalCode?: string;
  name: string;
  /** Thousandths of a percent: 8.875 % is 8875. */
  rateMillipercent: number;
  appliesToShipping: boolean;
}

/**
 * What the buyer's company says about its tax (docs/tax.md): its tax id, the country
 * that issued it and whether its form was checked (EU VAT numbers only), and an exemption
 * certificate an admin recorded. Null for a buyer outside any company.
 */
export interface BuyerTax {
  taxId: string | null;
  /** ISO alpha-2 of the state that issued the tax id. */
  taxIdCountry: string | null;
  /**
   * The tax id passed the EU VAT format check when an admin recorded it, and VIES has not said it
   * is not valid since (`companies.tax_id_validated_at`, cleared by such an answer: docs/tax.md
   * "VIES").
   */
  taxIdValidated: boolean;
  exemptionCertificate: string | null;
}

/** The legal note on a reverse-charged order and its invoice (EU VAT Directive, Article 196). */
export const REVERSE_CHARGE_NOTE =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC)";
export const REVERSE_CHARGE_NAME = "VAT reverse charge";
export const EXEMPT_NAME = "Tax exempt";
export const exemptionNote = (certificate: string) =>
  `Tax exempt: exemption certificate ${certificate} on file`;

/**
 * How an order is taxed: at the place's rate (`rate`, possibly none), or at 0 % with a note
 * (reverse charge, exemption). `buyerTaxId` is the company's tax id printed on the invoice for
 * it (the note names an exemption's certificate).
 */
export type TaxTreatment =
  | { kind: "standard"; rate: TaxRateRule | null }
  | { kind: "reverse_charge" | "exempt"; name: string; note: string; buyerTaxId: string | null };

/**
 * The treatment of an order going to `place` for `buyer`, sold from `sellerCountry`:
 * 1. a company with an exemption certificate on record pays no tax (wherever it goes);
 * 2. a company whose tax id is a format-checked EU VAT number of a member state other than the
 *    seller's, buying for delivery to a member state other than the seller's, is reverse-charged;
 * 3. everyone else pays the place's rate (`rateFor`).
 */
export function taxTreatment(
  rates: readonly TaxRateRule[],
  place: TaxPlace | null,
  buyer: BuyerTax | null,
  sellerCountry: string,
): TaxTreatment {
  if (buyer?.exemptionCertificate) {
    return {
      kind: "exempt",
      name: EXEMPT_NAME,
      note: exemptionNote(buyer.exemptionCertificate),
      buyerTaxId: buyer.taxId,
    };
  }
  if (!place) return { kind: "standard", rate: null };
  if (
    buyer?.taxId &&
    buyer.taxIdValidated &&
    isEuCountry(buyer.taxIdCountry) &&
    buyer.taxIdCountry !== sellerCountry &&
    isEuCountry(place.country) &&
    place.country !== sellerCountry
  ) {
    return {
      kind: "reverse_charge",
      name: REVERSE_CHARGE_NAME,
      note: REVERSE_CHARGE_NOTE,
      buyerTaxId: buyer.taxId,
    };
  }
  return { kind: "standard", rate: rateFor(rates, place) };
}

/** 100 % in thousandths of a percent. */
const WHOLE = 100_000;

/** Where tax is decided: the country, its region (a state) and the postal code, when known. */
export interface TaxPlace {
  country: string;
  region: string | null;
  postalCode?: string | null;
}

/**
 * How closely a rate fits a place (higher wins), or null when it does not apply there: a
 * postal code's own rate, then a range of codes (the narrower first), then a prefix (the longer
 * first), then the region's rate, then the country's.
 */
function fit(rate: TaxRateRule, place: TaxPlace, region: string, code: string): number | null {
  if (rate.country !== place.country) return null;
  if (rate.region !== "" && rate.region.toUpperCase() !== region) return null;
  const regional = rate.region === "" ? 0 : 1;
  if (!rate.postalCode) return regional;
  const pattern = parsePostalPattern(rate.postalCode);
  if (!pattern || code === "") return null;
  switch (pattern.kind) {
    case "exact":
      // A ZIP+4 address (10001-1234) is in its ZIP's (10001) rate.
      return code === pattern.code || code.startsWith(`${pattern.code}-`) ? 4e9 : null;
    case "range": {
      const head = code.slice(0, pattern.from.length);
      if (code.length < pattern.from.length || head < pattern.from || head > pattern.to)
        return null;
      const width = Number(pattern.to) - Number(pattern.from);
      return 3e9 - (Number.isFinite(width) ? Math.min(width, 1e9) : 1e9);
    }
    case "prefix":
      return code.startsWith(pattern.prefix) ? 1e9 + pattern.prefix.length : null;
  }
}

/**
 * The rate for a place, the one function that picks it (docs/tax.md): the most specific rate
 * that covers the place wins (`fit`), so a Manhattan address (10001) pays the 10001 rate rather
 * than New York State's; none when no rate covers it.
 */
export function rateFor(rates: readonly TaxRateRule[], place: TaxPlace): TaxRateRule | null {
  const region = place.region?.trim().toUpperCase() ?? "";
  const code = normalizePostalCode(place.postalCode ?? "");
  let best: TaxRateRule | null = null;
  let bestFit = -1;
  for (const rate of rates) {
    const f = fit(rate, place, region, code);
    if (f !== null && f > bestFit) {
      best = rate;
      bestFit = f;
    }
  }
  return best;
}

/**
 * The tax on an amount in minor units, rounded half up: 1.005 cents becomes 1, 1.5 becomes 2.
 * Integer arithmetic only (amounts up to 2^31 cents at up to 100 % stay below 2^53).
 */
export function taxOnCents(cents: number, rateMillipercent: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`bad amount: ${cents}`);
  return Math.floor((cents * rateMillipercent + WHOLE / 2) / WHOLE);
}

/**
 * Prices with VAT included (docs/tax.md "Prices with VAT included", issue 54 item 6): the gross
 * price a consumer is shown for a net price, the net plus its tax rounded half up.
 */
export function grossOfCents(netCents: number, rateMillipercent: number): number {
  return netCents + taxOnCents(netCents, rateMillipercent);
}

/**
 * The VAT contained in a gross amount (a consumer's line or order, priced with VAT included):
 * the gross less its net, the net being gross / (1 + rate) rounded half up. Never below 0 nor
 * above the gross; net + VAT is the gross exactly, so a total of gross prices never drifts by a
 * cent. Of a gross made by `grossOfCents`, it is the tax `taxOnCents` puts on the net.
 */
export function taxIncludedInCents(grossCents: number, rateMillipercent: number): number {
  if (!Number.isSafeInteger(grossCents) || grossCents < 0) {
    throw new RangeError(`bad amount: ${grossCents}`);
  }
  const net = Math.floor(
    (grossCents * WHOLE * 2 + (WHOLE + rateMillipercent)) / (2 * (WHOLE + rateMillipercent)),
  );
  return grossCents - net;
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

/**
 * The VAT contained in a consumer's order priced with VAT included (docs/tax.md "Prices with VAT
 * included"): each line's gross total (less its share of a code) and the gross shipping contain
 * their part, each rounded on its own (`taxIncludedInCents`); nothing is added to the total. The
 * shipping contains VAT only where the rate taxes shipping.
 */
export function taxOrderIncluded(
  lineGrossCents: readonly number[],
  shippingGrossCents: number,
  rate: TaxRateRule | null,
): OrderTax {
  if (!rate) return { lines: lineGrossCents.map(() => 0), shipping: 0, total: 0 };
  const lines = lineGrossCents.map((c) => taxIncludedInCents(c, rate.rateMillipercent));
  const shipping = rate.appliesToShipping
    ? taxIncludedInCents(shippingGrossCents, rate.rateMillipercent)
    : 0;
  return { lines, shipping, total: lines.reduce((a, b) => a + b, 0) + shipping };
}

/** A percentage on the wire (8.875) from thousandths of a percent, and back. */
export const percentFromMilli = (milli: number) => milli / 1000;
export const milliFromPercent = (percent: number) => Math.round(percent * 1000);
