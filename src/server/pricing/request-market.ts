import type { Market } from "../../contract/markets";
import { withConsumerTaxRateOf } from "../tax/service";
import type { DeliveryCountries } from "./delivery-countries";
import type { KeptRead } from "../changes/kept-read";
import type { MarketCache } from "./market-cache";
import { chooseMarket, marketForDelivery, marketNamed } from "./market-choice";
import type { PricingMarket } from "./pricing";
import { madeFor } from "../bounded-map";

/** The cookie that remembers a visitor's market (its code), as `?market=` sets it. */
export const MARKET_COOKIE = "market";
/** How long the choice is remembered: a year. */
const MARKET_COOKIE_SECONDS = 365 * 24 * 3600;

/** What a request says of its market: the `?market=` of its URL and the `market` cookie. */
export interface MarketRequest {
  url: string;
  headers: { cookie?: string };
}

/** The `?market=` of a URL (the last one), or null. */
export function marketQuery(url: string): string | null {
  const q = url.indexOf("?");
  if (q < 0) return null;
  const query = url.slice(q + 1);
  // Most URLs name no market: only a query with the word, or an escape that could spell it, is
  // parsed (every request asks, the catalog's cached answers included).
  if (!query.includes("market") && !query.includes("%")) return null;
  const values = new URLSearchParams(query).getAll("market");
  return values.length > 0 ? values[values.length - 1]! : null;
}

/** The `market` cookie of a cookie header, or null. */
export function marketCookie(cookie: string | undefined): string | null {
  const m = cookie?.match(/(?:^|;\s*)market=([A-Za-z]{2,8})(?:;|$)/);
  return m ? m[1]! : null;
}

/** A market as the pricing converts with it (the default market: none, which prices the same). */
export const pricingMarketOf = (m: Market): PricingMarket | undefined =>
  m.isDefault
    ? undefined
    : {
        code: m.code,
        currency: m.currency,
        rate: m.rate,
        rounding: m.rounding,
        pricesIncludeTax: m.pricesIncludeTax,
      };

const NO_RATES: ReadonlyMap<string, number> = new Map();

/**
 * The market each request prices in (docs/pricing.md "The market chosen"): the markets from
 * memory (`MarketCache`), the hints from the request (`?market=`, then the `market` cookie), then
 * the signed-in customer's default delivery country (asked only when neither names a market;
 * from memory: `DeliveryCountries`), then the default market; a VAT-inclusive market's consumer
 * rate from the countries' rates in memory (`consumerRates`); at checkout the country of the
 * saved address delivered to, from the same memory (`forDestination`). Warm, a request reads
 * nothing to choose its market. While buyers cannot choose (`MARKET_CHOICE` off), every request
 * is in the default market: no market, no read.
 */
export function createRequestMarkets(opts: {
  cache: MarketCache;
  choice: boolean;
  /** The customers' delivery countries (default and saved addresses), kept in memory. */
  deliveryCountries: Pick<DeliveryCountries, "of" | "ofAddress">;
  /** Each country's own tax rate (`readConsumerTaxRates`), kept in memory. */
  consumerRates: Pick<KeptRead<ReadonlyMap<string, number>>, "get">;
}) {
  /**
   * The market chosen for this request, as the admin keeps it (undefined when off), and the
   * country whose VAT its consumers see when the market shows VAT (`withConsumerTaxRate`): the
   * country that chose it when a country did; for a market named by its code, the signed-in
   * customer's default delivery country when it is one of the market's (their cart then shows
   * the VAT their checkout to that address adds, not the market's first country's).
   */
  async function choose(
    req: MarketRequest,
    customerId?: string,
  ): Promise<{ market: Market; country: string | null } | undefined> {
    if (!opts.choice) return undefined;
    const markets = await opts.cache.all();
    for (const hint of [marketQuery(req.url), marketCookie(req.headers.cookie)]) {
      const named = marketNamed(markets, hint);
      if (!named) continue;
      if (named.code !== hint!.trim().toUpperCase()) return { market: named, country: hint };
      const home =
        customerId && named.pricesIncludeTax ? await opts.deliveryCountries.of(customerId) : null;
      return {
        market: named,
        country: home !== null && named.countries.includes(home) ? home : null,
      };
    }
    const country = customerId ? await opts.deliveryCountries.of(customerId) : null;
    return { market: chooseMarket(markets, { deliveryCountry: country }), country };
  }

  /**
   * At checkout: the delivery country's market (`marketForDelivery`) and the notice when it is
   * not the one the request was priced in. Off: the default market, no notice.
   */
  async function forDelivery(
    req: MarketRequest,
    customerId: string | undefined,
    country: string,
  ): Promise<{ market: PricingMarket | undefined; notice: string | null }> {
    if (!opts.choice) return { market: undefined, notice: null };
    const markets = await opts.cache.all();
    const pricedIn = (await choose(req, customerId))!.market;
    const { market, notice } = marketForDelivery(markets, pricedIn, country);
    return { market: await priced(market, country.trim().toUpperCase()), notice };
  }

  /**
   * A chosen market as the pricing takes it, with its consumers' VAT rate when it shows one: the
   * same object for the same market, country and rates while they are kept (`madeFor`), so what
   * is made from it can be kept beside it (the catalog's market of a request).
   */
  async function priced(market: Market, country: string | null) {
    if (market.isDefault) return undefined;
    const rates = market.pricesIncludeTax ? await opts.consumerRates.get() : NO_RATES;
    const make = () => {
      const pricing = pricingMarketOf(market)!;
      if (!market.pricesIncludeTax) return pricing;
      const { taxRateMillipercent } = withConsumerTaxRateOf(rates, market, country);
      return taxRateMillipercent === undefined ? pricing : { ...pricing, taxRateMillipercent };
    };
    // Kept for the market's own countries only: a delivery country is what a buyer typed.
    if (country !== null && !market.countries.includes(country)) return make();
    const byMarket = madeFor(pricedByRates, rates, () => new WeakMap());
    return madeFor(
      madeFor(byMarket, market, () => new Map()),
      country,
      make,
    );
  }
  const pricedByRates = new WeakMap<
    ReadonlyMap<string, number>,
    WeakMap<Market, Map<string | null, PricingMarket>>
  >();

  return {
    /** Whether buyers choose a market (`MARKET_CHOICE`). */
    choice: opts.choice,

    /** The market chosen for this request (undefined when off). */
    chosen: async (req: MarketRequest, customerId?: string) =>
      (await choose(req, customerId))?.market,

    /** The market this request prices in; undefined: the default market (the store's currency). */
    async of(req: MarketRequest, customerId?: string): Promise<PricingMarket | undefined> {
      const chosen = await choose(req, customerId);
      return chosen && priced(chosen.market, chosen.country?.toUpperCase() ?? null);
    },

    forDelivery,

    /**
     * A door that delivers (the checkout, its quote, the one-product order): the market of the
     * destination's country (`forDelivery`): given (`shipTo`, an estimate), else the saved
     * address named, else the customer's default address; without any, the request's market.
     */
    async forDestination(
      req: MarketRequest,
      customerId: string | undefined,
      destination: { country?: string | null; addressId?: string | null },
    ): Promise<{ market: PricingMarket | undefined; notice: string | null }> {
      if (!opts.choice) return { market: undefined, notice: null };
      const country =
        destination.country ??
        (customerId
          ? await opts.deliveryCountries.ofAddress(customerId, destination.addressId)
          : null);
      if (country) return forDelivery(req, customerId, country);
      const chosen = await choose(req, customerId);
      return { market: chosen && (await priced(chosen.market, chosen.country)), notice: null };
    },

    /**
     * The Set-Cookie that remembers `?market=` when it names an active market (a hint that names
     * none is passed over: no cookie); null otherwise.
     */
    async cookieFor(req: MarketRequest): Promise<string | null> {
      if (!opts.choice) return null;
      const query = marketQuery(req.url);
      if (!query) return null;
      const market = marketNamed(await opts.cache.all(), query);
      if (!market) return null;
      return `${MARKET_COOKIE}=${market.code}; Path=/; Max-Age=${MARKET_COOKIE_SECONDS}; SameSite=Lax`;
    },
  };
}

export type RequestMarkets = ReturnType<typeof createRequestMarkets>;
