/**
 * Tax as pure functions (docs/money.md). Catalog prices are net of tax. One rate applies to an
 * order: its region's where the region has one, else its country's, else none. Tax is computed
 * per line on the line's net total (unit price × quantity) and on the shipping price, each
 * rounded half up to a whole minor unit; the order's tax is the sum of those roundings.
 */

import { isEuCountry } from "../../contract/vat-ids";

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

/**
 * What the buyer's company says about its tax (docs/tax-exemptions.md): its tax id, the country
 * that issued it and whether its form was checked (EU VAT numbers only), and an exemption
 * certificate an admin recorded. Null for a buyer outside any company.
 */
export interface BuyerTax {
  taxId: string | null;
  /** ISO alpha-2 of the state that issued the tax id. */
  taxIdCountry: string | null;
  /** The tax id passed the EU VAT format check when an admin recorded it. */
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
  place: { country: string; region: string | null } | null,
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
