import { z } from "zod";
import { COUNTRY_CODES } from "./addresses";
import { text } from "./text";

/** Tax rates by country and region (admin). Prices in the catalog are net of tax. */

const countries = new Set(COUNTRY_CODES);

export const taxRateInputSchema = z.object({
  country: text({ message: "Choose a country" })
    .trim()
    .toUpperCase()
    .refine((c) => countries.has(c), "Use a two-letter country code, like US or DE"),
  /** Empty: the whole country. US and CA: the state or province code. */
  region: text().trim().toUpperCase().max(60, "Must be 60 characters or shorter").default(""),
  name: text({ message: "Name is Required" })
    .trim()
    .min(1, "Name is Required")
    .max(60, "Must be 60 characters or shorter"),
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
  name: z.string(),
  rate: z.number(),
  appliesToShipping: z.boolean(),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

export const taxMessages = {
  duplicate: "A rate for this country and region exists already; edit it instead",
  notFound: "Tax rate not found",
} as const;

/**
 * A company's tax status (admin; docs/tax-exemptions.md): its tax id with the country that issued
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
  /** When the EU VAT number's form was checked (null: not an EU VAT number). */
  taxIdValidatedAt: z.string().nullable(),
  /** Whether orders for other EU member states are reverse-charged (an EU VAT id, checked). */
  reverseChargeEligible: z.boolean(),
  exemptionCertificate: z.string().nullable(),
  exemptionRecordedAt: z.string().nullable(),
  /** The admin who recorded the certificate (their email; null once their account is gone). */
  exemptionRecordedBy: z.string().nullable(),
});
export type CompanyTax = z.infer<typeof companyTaxSchema>;
