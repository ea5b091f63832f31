import type { ChargeFacts } from "../charges/estimate";
import type { ShippingMethodRule } from "../shipping/rates";
import { convertMinor, toStoreMinor } from "./convert";
import { formatCents } from "../money";
import { grossOfCents, rateFor, type TaxRateRule } from "../tax/rules";
import { withTaxIncluded, type PricingContext, type PricingMarket } from "./pricing";

/**
 * The money of a door other than its parts' prices, in the market a `PricingContext` prices in
 * (docs/pricing.md "Markets and currencies"): shipping rates and a discount code's amount and
 * minimum are set in the store's currency and converted by the same `convertMinor` as the parts;
 * money limits set in the store's currency (credit, approval, HOLD_MAX_VALUE) compare the
 * market's amounts brought back with `toStoreMinor`. Pure; without a market, everything as it is.
 */

const convert = (cents: number, m: PricingMarket) => convertMinor(cents, m.rate, m.rounding);

/**
 * A unit price decided in the store's currency (a cart line's price when it was seen), in the
 * market's, and gross for a consumer whose prices include VAT (`taxIncluded`), as `priceLines`
 * gives it.
 */
export const priceInMarket = (
  cents: number,
  market: PricingMarket | undefined,
  taxIncluded?: PricingContext["taxIncluded"],
): number => {
  const unit = market ? convert(cents, market) : cents;
  return taxIncluded ? grossOfCents(unit, taxIncluded.rateMillipercent) : unit;
};

/** A shipping method's prices, thresholds and bands in the market's currency. */
function methodInMarket(method: ShippingMethodRule, m: PricingMarket): ShippingMethodRule {
  return {
    ...method,
    priceCents: convert(method.priceCents, m),
    freeOverCents: method.freeOverCents === null ? null : convert(method.freeOverCents, m),
    bands: method.bands.map((b) => ({ ...b, priceCents: convert(b.priceCents, m) })),
  };
}

/** The charges' shipping rates in the market's currency (tax rates are percentages: as they are). */
export function chargesInMarket(
  facts: ChargeFacts,
  market: PricingMarket | undefined,
): ChargeFacts {
  if (!market) return facts;
  return {
    ...facts,
    zones: facts.zones.map((z) => ({
      ...z,
      methods: z.methods.map((method) => methodInMarket(method, market)),
    })),
  };
}

/**
 * The charges as a door prices them (docs/pricing.md, docs/tax.md): shipping rates in the
 * context's market; for a consumer whose prices include VAT, the shipping prices and bands made
 * gross at the place's rate where it taxes shipping (a "free from" threshold stays as converted:
 * it is compared with the gross prices shown), and the VAT contained rather than added.
 */
export function chargesFor(
  facts: ChargeFacts,
  pricing: Pick<PricingContext, "market" | "taxIncluded">,
): ChargeFacts {
  const inMarket = chargesInMarket(facts, pricing.market);
  const vat = pricing.taxIncluded;
  if (!vat) return inMarket;
  const rate = facts.place ? rateFor(facts.rates, facts.place) : null;
  const gross = (cents: number) =>
    rate?.appliesToShipping ? grossOfCents(cents, rate.rateMillipercent) : cents;
  return {
    ...inMarket,
    taxIncluded: vat,
    zones: inMarket.zones.map((z) => ({
      ...z,
      methods: z.methods.map((m) => ({
        ...m,
        priceCents: gross(m.priceCents),
        bands: m.bands.map((b) => ({ ...b, priceCents: gross(b.priceCents) })),
      })),
    })),
  };
}

/**
 * A consumer's context priced at the delivery place's VAT rate (docs/tax.md "Prices with VAT
 * included"): the rate their prices include at checkout is the delivery country's (its region's
 * or postal code's where it has one), none outside any rate. Without a place, or for a context
 * whose prices do not include VAT, the context as it is.
 */
export function atDeliveryRate(
  pricing: PricingContext,
  facts: { place: ChargeFacts["place"]; rates: readonly TaxRateRule[] } | undefined,
): PricingContext {
  if (!pricing.taxIncluded || !facts?.place) return pricing;
  return withTaxIncluded(pricing, rateFor(facts.rates, facts.place)?.rateMillipercent ?? 0);
}

/** A discount code's amount off and minimum order in the market's currency (a percent stays). */
export function codeInMarket<T extends { amountCents: number | null; minSubtotalCents: number }>(
  code: T,
  market: PricingMarket | undefined,
): T {
  if (!market) return code;
  return {
    ...code,
    amountCents: code.amountCents === null ? null : convert(code.amountCents, market),
    minSubtotalCents: convert(code.minSubtotalCents, market),
  };
}

/** An amount of the market's currency in the store's, for limits set in the store's currency. */
export const inStoreMinor = (cents: number, market: PricingMarket | undefined): number =>
  market ? toStoreMinor(cents, market.rate) : cents;

/**
 * An amount of the store's currency (a limit) as the buyer reads it: in the context's market, to
 * the cent (a limit is not a price: no .99 ending).
 */
export const marketMoney = (
  cents: number,
  pricing: Pick<PricingContext, "currency" | "market">,
): string => {
  const m = pricing.market;
  return formatCents(m ? convertMinor(cents, m.rate, "cent") : cents, pricing.currency);
};
