import { useSiteConfig } from "../../../lib/use-site-config";
import { useMarkets } from "../api/markets";

/** The market the `market` cookie remembers (as `?market=` set it), if any. */
export function rememberedMarket(cookie: string): string | undefined {
  return /(?:^|;\s*)market=([A-Za-z]{2,8})(?:;|$)/.exec(cookie)?.[1]?.toUpperCase();
}

/**
 * The navbar's market picker (docs/pricing.md "The market chosen"), shown only while buyers
 * choose a market (`MARKET_CHOICE`): the active markets of GET /api/markets; choosing one opens
 * the same page again with `?market=` (the server remembers it in the `market` cookie), so every
 * price on it is asked again in that market.
 */
export function MarketPicker() {
  const choice = useSiteConfig().data?.marketChoice === true;
  const markets = useMarkets(choice);
  const active = (markets.data ?? []).filter((m) => m.active);
  if (!choice || active.length < 2) return null;
  const remembered = rememberedMarket(document.cookie);
  const current =
    active.find((m) => m.code === remembered)?.code ?? active.find((m) => m.isDefault)?.code;
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
