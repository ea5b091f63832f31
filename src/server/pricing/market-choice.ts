import { marketMessages, type Market } from "../../contract/markets";

/**
 * Which market a request prices in (docs/pricing.md "Markets and currencies", "Market choice"):
 * the visitor's choice (`?market=`, then the remembered `market` cookie), each a market's code
 * or a country's ISO code; else the signed-in customer's default delivery country; else the
 * default market. Only active markets are chosen; a choice naming none is passed over. Pure: the
 * doors read the markets and the hints, then ask here. No door asks yet (buyers cannot choose a
 * market until every door prices in it).
 */
export interface MarketHints {
  /** `?market=`: "DE" (a country) or "EU" (a market's code), any case. */
  query?: string | null;
  /** The `market` cookie, as `?market=` left it. */
  cookie?: string | null;
  /** The signed-in customer's default delivery address's country. */
  deliveryCountry?: string | null;
}

/** The active market a code or country names, if any. */
export function marketNamed(markets: readonly Market[], name: string | null | undefined) {
  const wanted = name?.trim().toUpperCase();
  if (!wanted) return undefined;
  const active = markets.filter((m) => m.active);
  return active.find((m) => m.code === wanted) ?? active.find((m) => m.countries.includes(wanted));
}

/** The market for these hints, in their order; the default market when none names one. */
export function chooseMarket(markets: readonly Market[], hints: MarketHints): Market {
  const fallback = markets.find((m) => m.isDefault);
  if (!fallback) throw new Error("no default market (migration 0088 seeds one)");
  return (
    marketNamed(markets, hints.query) ??
    marketNamed(markets, hints.cookie) ??
    marketNamed(markets, hints.deliveryCountry) ??
    fallback
  );
}

/**
 * At checkout the delivery country decides (the choice: price there, and say so, rather than
 * refuse): its active market, else the default. `notice` tells the buyer when that is another
 * market than the one the cart was priced in; null otherwise.
 */
export function marketForDelivery(
  markets: readonly Market[],
  pricedIn: Market,
  deliveryCountry: string,
): { market: Market; notice: string | null } {
  const market = chooseMarket(markets, { deliveryCountry });
  const notice =
    market.id === pricedIn.id
      ? null
      : marketMessages.deliveryMarket(deliveryCountry.trim().toUpperCase(), market);
  return { market, notice };
}
