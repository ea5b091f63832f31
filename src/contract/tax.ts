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
