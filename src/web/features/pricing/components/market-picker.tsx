import type { ReactNode } from "react";
import type { Market } from "#contract/markets";
import { ShoppingMarketContext, type ShoppingMarket } from "../../../components/address-country";
import { useSiteConfig } from "../../../lib/use-site-config";
import { useMarkets } from "../api/markets";

/** The market the `market` cookie remembers (as `?market=` set it), if any. */
export function rememberedMarket(cookie: string): string | undefined {
  return /(?:^|;\s*)market=([A-Za-z]{2,8})(?:;|$)/.exec(cookie)?.[1]?.toUpperCase();
}

/**
 * The market a buyer shops in, as the browser knows it (docs/pricing.md "The market chosen"):
 * while buyers choose markets (`MARKET_CHOICE`), the active market the `market` cookie remembers,
 * else the default; `choice` false while they do not. `pending` while the site config or the
 * markets load; `chosen` undefined when no market is known (markets off, or unreadable).
 */
export function useChosenMarket(): {
  choice: boolean;
  pending: boolean;
  active: Market[];
  chosen: Market | undefined;
  /** The country the store sells from (the site config's). */
  storeCountry: string | undefined;
} {
  const config = useSiteConfig();
  const choice = config.data?.marketChoice === true;
  const markets = useMarkets(choice);
  const active = (markets.data ?? []).filter((m) => m.active);
  const remembered = active.length > 0 ? rememberedMarket(document.cookie) : undefined;
  return {
    choice,
    pending: config.isPending || (choice && markets.isPending),
    active,
    chosen: active.find((m) => m.code === remembered) ?? active.find((m) => m.isDefault),
    storeCountry: config.data?.storeCountry,
  };
}

/**
 * Gives the new-address forms below it the market the buyer shops in (their country starts in
 * it: `newAddressCountry`, components/address-country.ts).
 */
export function ShoppingMarketProvider({ children }: { children: ReactNode }) {
  const { choice, pending, chosen, storeCountry } = useChosenMarket();
  const market: ShoppingMarket = pending
    ? { kind: "pending" }
    : choice && chosen
      ? { kind: "market", countries: chosen.countries, storeCountry }
      : { kind: "off", storeCountry };
  return <ShoppingMarketContext value={market}>{children}</ShoppingMarketContext>;
}

/**
 * The navbar's market picker (docs/pricing.md "The market chosen"), shown only while buyers
 * choose a market (`MARKET_CHOICE`): the active markets of GET /api/markets; choosing one opens
 * the same page again with `?market=` (the server remembers it in the `market` cookie), so every
 * price on it is asked again in that market.
 */
export function MarketPicker() {
  const { choice, active, chosen } = useChosenMarket();
  if (!choice || active.length < 2) return null;
  const current = chosen?.code;
  return (
    <li>
      {/* No padding of its own: the bar stays as tall as without the picker. */}
      <label className="flex items-center gap-2 py-0">
        <span className="sr-only">Market</span>
        <select
          className="select select-sm w-auto"
          aria-label="Market"
          value={current}
          onChange={(e) => {
            const url = new URL(window.location.href);
            url.searchParams.set("market", e.target.value);
            window.location.assign(url.toString());
          }}
        >
          {active.map((m) => (
            // Short, so the navbar keeps to one line: "EU (EUR)", the name in its title.
            <option key={m.code} value={m.code} title={m.name}>
              {m.code} ({m.currency})
            </option>
          ))}
        </select>
      </label>
    </li>
  );
}
