import { and, eq } from "drizzle-orm";
import { addresses } from "../addresses/tables";
import type { DbOrTx } from "../db/database";
import { shared } from "./list-prices";

/** The country of a saved address of the customer's, or of their default one (a read). */
export async function addressCountry(db: DbOrTx, customerId: string, addressId?: string | null) {
  const [row] = await db
    .select({ country: addresses.country })
    .from(addresses)
    .where(
      and(
        eq(addresses.userId, customerId),
        addressId ? eq(addresses.id, addressId) : eq(addresses.isDefault, true),
      ),
    );
  return row?.country ?? null;
}

/**
 * Each signed-in customer's default delivery country (null: no address), kept in memory for the
 * market their requests price in without a `?market=` or cookie (docs/pricing.md "The market
 * chosen"), so a catalog, cart or price request reads no address. At most `maxEntries` customers
 * (the oldest read goes first). Every change to a customer's addresses says so on the change bus
 * (`addresses:<user id>`, a trigger of migration 0095, in the writing transaction): every process
 * forgets that customer; the writing process also forgets them as the change answers
 * (`forget`, told by the address book). A read is kept as a promise from its start, so a change
 * heard while it runs drops it too (it never puts an old country back). Trusted only while the
 * listener proves it hears (`setListening`); otherwise every call reads.
 */
export class DeliveryCountries {
  private kept = new Map<string, Promise<string | null>>();
  private listening = false;
  private readonly maxEntries: number;
  /** Told of every database read (tests count them). */
  onRead: () => void = () => {};

  constructor(
    private readonly db: DbOrTx,
    opts: { maxEntries?: number } = {},
  ) {
    this.maxEntries = opts.maxEntries ?? 10_000;
  }

  /** The customer's default delivery country, from memory when kept. */
  of(customerId: string): Promise<string | null> {
    const read = () => {
      this.onRead();
      return addressCountry(this.db, customerId);
    };
    if (!this.listening) return read();
    return shared(this.kept, customerId, this.maxEntries, read);
  }

  /** A customer's addresses changed in this process (as the change answers). */
  forget(customerId: string): void {
    this.kept.delete(customerId);
  }

  /** NOTIFY `addresses:<user id>`: forget that customer; `addresses` alone: every one. */
  invalidate(_topic?: string, customerId?: string): void {
    if (customerId === undefined) this.kept = new Map();
    else this.forget(customerId);
  }

  /** While changes cannot be heard (the listener is reconnecting), nothing is kept. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.kept = new Map();
  }
}
