import type { Market } from "../../contract/markets";
import { KeptRead } from "../changes/kept-read";

/**
 * Every market, kept in memory for the doors that price in one (docs/pricing.md "The market
 * chosen"): read once, shared by concurrent callers, and cleared whole by `invalidate`: every
 * change to `markets` or `market_countries` sends NOTIFY `markets` (migration 0093, in the
 * writing transaction), heard by every process's change listener; the writing process also clears
 * it as the admin's change answers (market-routes.ts). Trusted only while the listener proves it
 * hears (`setListening`): otherwise every call reads the database. The countries' own tax rates a
 * VAT-inclusive market's consumers see are kept the same way (`KeptRead`, NOTIFY `markets` from
 * `tax_rates`, migration 0095).
 */
export class MarketCache extends KeptRead<readonly Market[]> {
  /** @param read every market, active or not, the default first (`MarketService.list(true)`). */
  constructor(read: () => Promise<readonly Market[]>) {
    super(read);
  }

  /** Every market, active or not, the default first. */
  all(): Promise<readonly Market[]> {
    return this.get();
  }
}
