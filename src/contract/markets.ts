import { z } from "zod";
import { COUNTRY_CODES, countryName } from "./addresses";
import { formatCount } from "./count";
import { text } from "./text";

/**
 * Markets (docs/pricing.md "Markets and currencies"): groups of countries with a currency, an
 * exchange rate from the store's currency (admin-entered) and a rounding rule, and whether
 * consumers there see prices with VAT included. One market is the default: the store's currency
 * at rate 1. Money stays in integer minor units of its own currency (cents, pence).
 */

/** The currencies a market may use to start with (each has two decimals). */
export const marketCurrencies = ["USD", "EUR", "GBP"] as const;
export type MarketCurrency = (typeof marketCurrencies)[number];

/**
 * How a converted price is rounded: to the cent (half up), to whole units (half up), or to the
 * nearest price ending in .99 or .95 (a converted price under half a unit stays as rounded to
 * the cent: charm prices are for whole prices, and a free part stays free).
 */
export const roundingRules = ["cent", "whole", "end99", "end95"] as const;
export type RoundingRule = (typeof roundingRules)[number];

export const roundingWords: Record<RoundingRule, string> = {
  cent: "To the cent",
  whole: "To whole units",
  end99: "Ending in .99",
  end95: "Ending in .95",
};

/** The store-currency price the Markets screen shows converted in each market (19.99). */
export const EXAMPLE_PRICE_CENTS = 1999;

/** The largest exchange rate accepted, and its decimals (the column is numeric(14,6)). */
export const MAX_RATE = 100_000;
export const RATE_DECIMALS = 6;

export const marketMessages = {
  notFound: "Market not found",
  codeTaken: "A market with this code exists already",
  nameTaken: "A market with this name exists already",
  code: "A code is 2 to 8 letters, like EU",
  name: "Name is Required",
  currency: "Choose USD, EUR or GBP",
  rounding: "Choose a rounding rule",
  rate: `An exchange rate is a number above 0, at most ${formatCount(MAX_RATE)}, with at most ${RATE_DECIMALS} decimals`,
  countries: "List the market's countries as ISO codes, like DE FR IT",
  unknownCountry: (code: string) => `${code} is not an ISO country code`,
  countryTaken: (country: string, market: string) =>
    `${countryName(country)} (${country}) belongs to the market ${market} already`,
  defaultCurrency: (currency: string) =>
    `The default market is the store's currency (${currency}) at rate 1`,
  defaultActive: "The default market cannot be switched off",
  /** At checkout, when the delivery country is another market's than the cart was priced in. */
  deliveryMarket: (country: string, market: { name: string; currency: string }) =>
    `Delivery to ${countryName(country)} is priced in ${market.currency} (${market.name}): the totals below are in ${market.currency}`,
} as const;

const countrySet = new Set(COUNTRY_CODES);

/** "de, fr it" or ["de", "FR"] → ["DE", "FR", "IT"]: upper case, each once, in order given. */
function countryList(v: string | string[]): string[] {
  const parts = (typeof v === "string" ? v.split(/[\s,;]+/) : v)
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== "");
  return [...new Set(parts)];
}

const countriesSchema = z
  .union([text(), z.array(text().max(4)).max(300)], { error: marketMessages.countries })
  .transform(countryList)
  .superRefine((list, ctx) => {
    if (list.length === 0) ctx.addIssue({ code: "custom", message: marketMessages.countries });
    const unknown = list.find((c) => !countrySet.has(c));
    if (unknown) ctx.addIssue({ code: "custom", message: marketMessages.unknownCountry(unknown) });
  });

/** Whether `rate` has at most RATE_DECIMALS decimals (as typed: 0.923456, not 0.1 + 0.2). */
const fewDecimals = (rate: number) =>
  Math.abs(Math.round(rate * 10 ** RATE_DECIMALS) - rate * 10 ** RATE_DECIMALS) < 1e-6;

export const rateSchema = z
  .number({ error: marketMessages.rate })
  .positive(marketMessages.rate)
  .max(MAX_RATE, marketMessages.rate)
  .refine(fewDecimals, marketMessages.rate);

export const marketInputSchema = z.strictObject({
  code: text({ error: marketMessages.code })
    .trim()
    .regex(/^[A-Za-z]{2,8}$/, marketMessages.code)
    .transform((s) => s.toUpperCase()),
  name: text({ error: marketMessages.name })
    .trim()
    .min(1, marketMessages.name)
    .max(60, "Must be 60 characters or shorter"),
  currency: z.enum(marketCurrencies, { error: marketMessages.currency }),
  countries: countriesSchema,
  /** Consumers (buyers without a company) see prices with VAT included. */
  pricesIncludeTax: z.boolean().default(false),
  /** One unit of the store's currency in the market's currency (admin-entered). */
  rate: rateSchema,
  rounding: z.enum(roundingRules, { error: marketMessages.rounding }).default("cent"),
  active: z.boolean().default(true),
});
export type MarketInput = z.input<typeof marketInputSchema>;
export type MarketValues = z.output<typeof marketInputSchema>;

/** A change: the whole market again, as when it was created (the form sends all its fields). */
export const marketUpdateSchema = marketInputSchema;

export const marketSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  currency: z.enum(marketCurrencies),
  countries: z.array(z.string()),
  pricesIncludeTax: z.boolean(),
  rate: z.number(),
  rounding: z.enum(roundingRules),
  active: z.boolean(),
  /** The store's own currency at rate 1 (one market is). */
  isDefault: z.boolean(),
  /**
   * A part of EXAMPLE_PRICE in the store's currency, as the pricing converts it here (currency
   * units): the admin's check of the rate and the rounding rule.
   */
  example: z.object({ storePrice: z.number(), price: z.number() }),
});
export type Market = z.infer<typeof marketSchema>;

/** The rate in words: "1 USD = 0.92 EUR". */
export const rateWords = (storeCurrency: string, m: Pick<Market, "currency" | "rate">) =>
  `1 ${storeCurrency} = ${m.rate} ${m.currency}`;
