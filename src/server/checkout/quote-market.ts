import { quoteMessages } from "../../contract/quotes";
import type { Market } from "../../contract/markets";
import type { ChargeFacts } from "../charges/estimate";
import { unprocessable } from "../errors";
import { chooseMarket } from "../pricing/market-choice";
import type { QuoteToAccept } from "./request";

/** The markets as the checkout reads them (the market cache), and whether buyers choose one. */
export interface QuoteMarkets {
  /** `MARKET_CHOICE`: off, a quote in the store's currency goes anywhere, as always. */
  choice: boolean;
  all(): Promise<readonly Market[]>;
}

/**
 * A quote is delivered within its own market (docs/quotes.md "In the buyer's market"): a
 * destination whose country is another market's is refused in words (422, beside the address),
 * before anything is written. A quote in the default market goes to any country the checkout
 * would price in it (a country in no active market too). With `MARKET_CHOICE` off, a quote in
 * the store's currency (every quote then) is not checked: nothing read, as before.
 */
export async function refuseOtherMarket(
  markets: QuoteMarkets | undefined,
  quote: QuoteToAccept,
  charges: Pick<ChargeFacts, "place"> | undefined,
): Promise<void> {
  const country = charges?.place?.country.toUpperCase();
  if (!markets || !country || (!markets.choice && !quote.market)) return;
  const all = await markets.all();
  const code = quote.market?.code ?? null;
  const own = all.find((m) => (code === null ? m.isDefault : m.code === code));
  const fits =
    code === null
      ? chooseMarket(all, { deliveryCountry: country }).isDefault
      : !!own?.countries.includes(country);
  if (fits) return;
  const message = quoteMessages.otherMarket(
    quote.currency ?? own?.currency ?? "",
    own?.name ?? code ?? "",
  );
  throw unprocessable(message, "addressId");
}
