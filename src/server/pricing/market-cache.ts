import type { Market } from "../../contract/markets";

/**
 * One read kept in memory while the change listener proves it hears (`setListening`), shared by
 * concurrent callers and cleared whole by `invalidate`; otherwise every call reads the database.
 * A read that started before a change is not kept, so a slow read never puts an old value back.
 */
export class KeptRead<T> {
  private kept: Promise<T> | undefined;
  private generation = 0;
  private listening = false;
  /** Told of every database read (tests count them). */
  onRead: () => void = () => {};

  constructor(private readonly read: () => Promise<T>) {}

  /** The value, from memory when kept. */
  get(): Promise<T> {
    if (this.kept) return this.kept;
    const startedAt = this.generation;
    this.onRead();
    const reading = this.read();
    if (this.listening) {
      this.kept = reading;
      // A failed read is not kept; nor one a change overtook (it is cleared with the rest).
      reading.catch(() => {
        if (this.generation === startedAt) this.kept = undefined;
      });
    }
    return reading;
  }

  /** It changed (NOTIFY, or a write in this process): read again. */
  invalidate(): void {
    this.generation += 1;
    this.kept = undefined;
  }

  /** While changes cannot be heard (the listener is reconnecting), nothing is kept. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }
}

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
