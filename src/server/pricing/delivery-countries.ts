import { eq } from "drizzle-orm";
import { addresses } from "../addresses/tables";
import type { DbOrTx } from "../db/database";
import { shared } from "./list-prices";

/** A customer's address book as the market follows it: each address's country, and the default's. */
interface Countries {
  defaultCountry: string | null;
  byAddress: ReadonlyMap<string, string>;
}

/** Every address of the customer's with its country (at most `MAX_ADDRESSES`: one read). */
async function readCountries(db: DbOrTx, customerId: string): Promise<Countries> {
  const rows = await db
    .select({ id: addresses.id, country: addresses.country, isDefault: addresses.isDefault })
    .from(addresses)
    .where(eq(addresses.userId, customerId));
  return {
    defaultCountry: rows.find((r) => r.isDefault)?.country ?? null,
    byAddress: new Map(rows.map((r) => [r.id, r.country])),
  };
}

/**
 * Each signed-in customer's delivery countries (their default address's, null without one, and
 * each saved address's), kept in memory for the market their requests price in without a
 * `?market=` or cookie and the market a checkout to a saved address prices in (docs/pricing.md
 * "The market chosen"), so a catalog, cart, price or checkout request reads no address for it
 * (the checkout's own read still reads the address it delivers to). At most `maxEntries` customers
 * (the oldest read goes first). Every change to a customer's addresses says so on the change bus
 * (`addresses:<user id>`, a trigger of migration 0095, in the writing transaction): every process
 * forgets that customer; the writing process also forgets them as the change answers
 * (`forget`, told by the address book). A read is kept as a promise from its start, so a change
 * heard while it runs drops it too (it never puts an old country back). Trusted only while the
 * listener proves it hears (`setListening`); otherwise every call reads.
 */
export class DeliveryCountries {
  private kept = new Map<string, Promise<Countries>>();
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
  async of(customerId: string): Promise<string | null> {
    return (await this.countries(customerId)).defaultCountry;
  }

  /** The country of a saved address of the customer's (null: none such), else of the default. */
  async ofAddress(customerId: string, addressId?: string | null): Promise<string | null> {
    const countries = await this.countries(customerId);
    return addressId ? (countries.byAddress.get(addressId) ?? null) : countries.defaultCountry;
  }

  private countries(customerId: string): Promise<Countries> {
    const read = () => {
      this.onRead();
      return readCountries(this.db, customerId);
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
