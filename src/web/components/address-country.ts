import { createContext, useContext } from "react";

/**
 * The store's default country where the site config does not say its own (`storeCountry`,
 * STORE_COUNTRY): the United States, the demo seller's.
 */
export const STORE_DEFAULT_COUNTRY = "US";

/**
 * What the browser knows of the market a buyer shops in (docs/pricing.md "The market chosen"):
 * `off` while buyers do not choose markets (`MARKET_CHOICE=false`: everyone in the store's
 * currency) or while the market cannot be read, `pending` while it loads, else the chosen
 * market's countries; with the store's own country when the site config gives it.
 */
export type ShoppingMarket =
  | { kind: "off"; storeCountry?: string }
  | { kind: "pending" }
  | { kind: "market"; countries: readonly string[]; storeCountry?: string };

/**
 * The country a new address starts in (docs/shipping.md "Addresses"): the buyer's default
 * address's country if they have one; else, with markets on, the chosen market's country when it
 * has exactly one, or the store's default country when it is among the market's, else none ("":
 * the form asks "Choose a country"); with markets off, the store's default country. `undefined`
 * while the market loads (and no default address decides).
 */
export function newAddressCountry(opts: {
  defaultAddressCountry?: string | null;
  market: ShoppingMarket;
}): string | undefined {
  if (opts.defaultAddressCountry) return opts.defaultAddressCountry;
  const { market } = opts;
  const store = (market.kind !== "pending" && market.storeCountry) || STORE_DEFAULT_COUNTRY;
  switch (market.kind) {
    case "off":
      return store;
    case "pending":
      return undefined;
    case "market":
      if (market.countries.length === 1) return market.countries[0];
      return market.countries.includes(store) ? store : "";
  }
}

/**
 * The market the buyer shops in, for the new-address forms below it. The app provides it (from
 * the pricing feature's chosen market); without a provider, markets are off.
 */
export const ShoppingMarketContext = createContext<ShoppingMarket>({ kind: "off" });

/** The country a new address starts in here, given the buyer's default address's country. */
export function useNewAddressCountry(defaultAddressCountry?: string | null): string | undefined {
  return newAddressCountry({ defaultAddressCountry, market: useContext(ShoppingMarketContext) });
}
