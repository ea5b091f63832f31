import { z } from "zod";
import { COUNTRY_CODES } from "./addresses";
import { vatCheckSchema } from "./companies";
import { requiredName, shortText, text } from "./text";

/** Tax rates by country and region (admin). Prices in the catalog are net of tax. */

export const POSTAL_PATTERN_MESSAGE =
  "Use a postal code (10001), a prefix (100*) or a range of one length (10001-10299)";

const countries = new Set(COUNTRY_CODES);

/**
 * The postal codes a rate covers (docs/tax.md): one code (`10001`), a prefix (`100*`), or a
 * range of codes of one length, both ends included (`10001-10299`). Letters are upper-cased and
 * spaces dropped, as in the addresses they are matched against.
 */
export type PostalPattern =
  | { kind: "exact"; code: string }
  | { kind: "prefix"; prefix: string }
  | { kind: "range"; from: string; to: string };

const POSTAL_PART = /^[A-Z0-9]{1,10}$/;

/** A postal code as rates compare it: upper-case, without spaces. */
export const normalizePostalCode = (code: string) => code.toUpperCase().replace(/\s+/g, "");

/** The pattern a rate's postal code field holds, or null when it is not one. */
export function parsePostalPattern(value: string): PostalPattern | null {
  const v = normalizePostalCode(value);
  if (v.endsWith("*")) {
    const prefix = v.slice(0, -1);
    return POSTAL_PART.test(prefix) ? { kind: "prefix", prefix } : null;
  }
  const range = /^([A-Z0-9]+)-([A-Z0-9]+)$/.exec(v);
  // Two ends of one length: a range (`10001-10299`); of two lengths, one code (ZIP+4 `10001-1234`).
  if (range && range[1]!.length === range[2]!.length) {
    const [, from, to] = range as unknown as [string, string, string];
    return POSTAL_PART.test(from) && from <= to ? { kind: "range", from, to } : null;
  }
  return /^[A-Z0-9][A-Z0-9-]{0,11}$/.test(v) ? { kind: "exact", code: v } : null;
}

export const taxRateInputSchema = z.object({
  country: text({ message: "Choose a country" })
    .trim()
    .toUpperCase()
    .refine((c) => countries.has(c), "Use a two-letter country code, like US or DE"),
  /** Empty: the whole country. US and CA: the state or province code. */
  region: text().trim().toUpperCase().max(60, "Must be 60 characters or shorter").default(""),
  /** Empty: the whole region or country; else a code, a prefix (`100*`) or a range. */
  postalCode: shortText(23)
    .transform(normalizePostalCode)
    .refine((p) => p === "" || parsePostalPattern(p) !== null, POSTAL_PATTERN_MESSAGE)
    .default(""),
  name: requiredName(60),
  /** A percentage with at most three decimals: 8.875 */
  rate: z
    .number({ message: "Enter a rate in percent" })
    .min(0, "A rate cannot be negative")
    .max(100, "A rate is at most 100 %")
    .refine((r) => Math.abs(r * 1000 - Math.round(r * 1000)) < 1e-6, "Use at most three decimals"),
  appliesToShipping: z.boolean().default(true),
});
export type TaxRateInput = z.infer<typeof taxRateInputSchema>;
export type TaxRateDraft = z.input<typeof taxRateInputSchema>;

export const taxRateSchema = z.object({
  id: z.uuid(),
  country: z.string(),
  region: z.string(),
  postalCode: z.string(),
  name: z.string(),
  rate: z.number(),
  appliesToShipping: z.boolean(),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

export const taxMessages = {
  duplicate: "A rate for this country, region and postal code exists already; edit it instead",
  notFound: "Tax rate not found",
} as const;

/**
 * The words of prices with VAT included (docs/tax.md "Prices with VAT included"): beside a
 * consumer's gross price ("incl. 19 % VAT") and in place of a tax line added to the total on the
 * order, its emails, invoice and credit notes ("Includes VAT (19 %) €3.80"). `percent` as the
 * rate's percentage (19, 8.875), `money` formatted in the order's currency.
 */
export const vatIncludedWords = {
  price: (percent: number) => `incl. ${percent} % VAT`,
  label: (percent: number) => `Includes VAT (${percent} %)`,
  total: (percent: number, money: string) => `${vatIncludedWords.label(percent)} ${money}`,
} as const;

/**
 * The words beside a cart's prices (its lines' unit prices): "incl. 19 % VAT" when they include
 * VAT (the cart's `pricesIncludeTax`, at its `taxRate`), else null (net prices, tax added).
 */
export const cartVatNote = (cart: { pricesIncludeTax?: boolean; taxRate: number | null }) =>
  cart.pricesIncludeTax && cart.taxRate !== null ? vatIncludedWords.price(cart.taxRate) : null;

/**
 * A company's tax status (admin; docs/tax.md): its tax id with the country that issued
 * it (an EU VAT number's form is checked, offline), and a tax exemption certificate number.
 */
export const companyTaxMessages = {
  countryUnknown: "Use a two-letter country code, like DE or US",
  certificateTooLong: "Must be 60 characters or shorter",
  taxIdTooLong: "Must be 40 characters or shorter",
} as const;

const blankToNull = (v: string) => (v === "" ? null : v);

export const companyTaxInputSchema = z.strictObject({
  /** The tax id (an EU VAT number, an EIN…); null or "" removes it. */
  taxId: text().trim().max(40, companyTaxMessages.taxIdTooLong).transform(blankToNull).nullable(),
  /** The issuing country; absent: read from an EU VAT prefix (DE…, EL… for Greece). */
  taxIdCountry: text()
    .trim()
    .toUpperCase()
    .transform(blankToNull)
    .refine((c) => c === null || countries.has(c), companyTaxMessages.countryUnknown)
    .nullable()
    .optional(),
  /** An exemption certificate's number; null or "" removes it. */
  exemptionCertificate: text()
    .trim()
    .max(60, companyTaxMessages.certificateTooLong)
    .transform(blankToNull)
    .nullable(),
});
export type CompanyTaxInput = z.input<typeof companyTaxInputSchema>;

export const companyTaxSchema = z.object({
  companyId: z.uuid(),
  taxId: z.string().nullable(),
  taxIdCountry: z.string().nullable(),
  /**
   * When the EU VAT number's form was checked, or VIES last confirmed it (null: not an EU VAT
   * number, or VIES says it is not valid).
   */
  taxIdValidatedAt: z.string().nullable(),
  /** Whether orders for other EU member states are reverse-charged (an EU VAT id, checked). */
  reverseChargeEligible: z.boolean(),
  exemptionCertificate: z.string().nullable(),
  exemptionRecordedAt: z.string().nullable(),
  /** The admin who recorded the certificate (their email; null once their account is gone). */
  exemptionRecordedBy: z.string().nullable(),
  /** The EU VAT number's VIES check (null: not an EU VAT number, or VIES_URL=off). */
  vies: vatCheckSchema.nullable(),
});
export type CompanyTax = z.infer<typeof companyTaxSchema>;

/** The columns of a tax-rate CSV (docs/tax.md); region and postal_code may be empty. */
export const taxRateCsvColumns = [
  "country",
  "region",
  "postal_code",
  "name",
  "rate",
  "applies_to_shipping",
] as const;
export const MAX_TAX_CSV_ROWS = 5000;
/** A tax-rate CSV's text, at most this many characters (some 5,000 rows). */
export const MAX_TAX_CSV_CHARS = 500_000;

/** POST /api/tax-rates/import: the CSV file's text (the page reads the file). */
export const taxRateImportSchema = z.strictObject({
  csv: text({ message: "Choose a CSV file" }, { multiline: true })
    .min(1, "Choose a CSV file")
    .max(MAX_TAX_CSV_CHARS, "The file must be 500,000 characters or shorter"),
});
export type TaxRateImport = z.infer<typeof taxRateImportSchema>;

/** What an import wrote: rates added, and rates of places that had one (replaced). */
export const taxRateImportResultSchema = z.object({
  added: z.number().int(),
  updated: z.number().int(),
});
export type TaxRateImportResult = z.infer<typeof taxRateImportResultSchema>;
