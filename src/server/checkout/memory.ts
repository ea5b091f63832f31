import { keepBounded } from "../bounded-map";
import { toStoreMinor } from "../pricing/convert";
import { pricesAnyProduct, type PricingContext } from "../pricing/pricing";
import type { ChargeFacts } from "../charges/estimate";
import type { ProductFacts, WantedLine } from "./decide";
import { earliestWindow, RATE_WINDOW_SECONDS, type PlacementRead, type UnlockedRead } from "./read";
import type { SavedAddress } from "../charges/read";
import type { DecidedOn, OrderToWrite } from "./write";

/**
 * What a process remembers of its placements' reads and writes, so that an order of given lines
 * to the customer's default address can be decided without reading (docs/decisions/
 * 011-checkout-workflow.md, "Decided from memory"). Nothing here is trusted: the write goes ahead
 * only while what the order was decided on still holds (`DecidedOn`: the customer's revision and
 * email verification, the facts' version, their hold windows; the stock and the hold share are
 * checked in SQL), and a placement the memory would refuse is read afresh instead (a payment, a
 * cancellation or a new delivery of stock elsewhere only makes memory refuse what a read allows).
 */
export interface PlacementMemory {
  /**
   * What a read without the lock found: kept for the products it read, and for the customer when
   * it read their whole standing (`read.standing`; asked for only by an order the memory could
   * decide: given parts to the default address).
   */
  learn(customerId: string, read: UnlockedRead): void;
  /** An order written by this process: the customer's standing and the products' stock after it. */
  placed(
    customerId: string,
    before: DecidedOn,
    order: OrderToWrite,
    stock: Map<string, number>,
  ): void;
  /** Products' stock on sale as just read. */
  stock(stock: Map<string, number>): void;
  /**
   * These lines as a read would find them, and what the write must check; null when any of it
   * is not known (or the per-minute window it was counted in has ended).
   */
  recall(
    customerId: string,
    lines: WantedLine[],
    now?: number,
  ): { placement: PlacementRead; decidedOn: DecidedOn; placedThisMinute: number } | null;
}

/** A customer as the memory knows them, at their `revision`. */
interface KnownCustomer {
  decidedOn: Omit<DecidedOn, "windowEnd">;
  heldCents: number;
  unpaidProductIds: Set<string>;
  windows: Map<string, Date>;
  charges: ChargeFacts;
  address: SavedAddress | null;
  pricing: PricingContext;
  placedThisMinute: number;
  minuteEndsAt: number;
}

/** Customers kept, the least recently used forgotten first. */
export const REMEMBERED_CUSTOMERS = 10_000;
/** Products kept (a catalog larger than this is read for the rest). */
export const REMEMBERED_PRODUCTS = 50_000;

/**
 * The placements counted in the customer's per-minute window (`RATE_WINDOW_SECONDS`): none once
 * the window known has ended, or when none was open (a read of a customer who has placed nothing
 * this minute ends it as it reads). Nothing was placed since, or the revision would have moved:
 * their next placement opens a new window. The end known is never before the database's (read
 * after it, in whole seconds rounded up), so no placement counted there is missed here.
 */
const placedInWindow = (known: KnownCustomer, now: number) =>
  known.minuteEndsAt <= now ? 0 : known.placedThisMinute;

/**
 * The memory of one process. Facts of an older version than the newest read are dropped whole
 * (they would fail the write's check anyway).
 */
export function createPlacementMemory(
  limits: { customers?: number; products?: number } = {},
): PlacementMemory {
  const maxCustomers = limits.customers ?? REMEMBERED_CUSTOMERS;
  const maxProducts = limits.products ?? REMEMBERED_PRODUCTS;
  let factsVersion = -1;
  const products = new Map<string, ProductFacts>();
  const customers = new Map<string, KnownCustomer>();
  /**
   * A country's shipping zones and tax rates, one copy for every customer shipping there (at one
   * version they are the same for all: `read-charges.ts` reads them by the country alone).
   */
  const rulesByCountry = new Map<string, Pick<ChargeFacts, "zones" | "rates">>();

  /** The charge facts, their zones and rates shared with other customers of the country. */
  function shareRules(charges: ChargeFacts): ChargeFacts {
    const country = charges.place?.country;
    if (!country) return charges;
    const shared = rulesByCountry.get(country);
    if (!shared) {
      rulesByCountry.set(country, { zones: charges.zones, rates: charges.rates });
      return charges;
    }
    return { ...charges, zones: shared.zones, rates: shared.rates };
  }

  function learnStock(stock: Map<string, number>) {
    for (const [id, available] of stock) {
      const p = products.get(id);
      if (p) products.set(id, { ...p, available });
    }
  }

  return {
    learn(customerId, read) {
      const { placement, decidedOn, standing } = read;
      if (decidedOn.factsVersion < factsVersion) return;
      if (decidedOn.factsVersion > factsVersion) {
        factsVersion = decidedOn.factsVersion;
        products.clear();
        customers.clear();
        rulesByCountry.clear();
      }
      for (const p of placement.products.values()) keepBounded(products, p.id, p, maxProducts);
      // A company's buyer is placed under the lock (net terms, approvals): nothing to keep; nor
      // is a customer in a group of their own (its rules were read for these products only).
      if (!pricesAnyProduct(placement.pricing) || !standing) return;
      const known = customers.get(customerId);
      // A read that started before one of this process's own writes knows less than it.
      if (known && known.decidedOn.revision > decidedOn.revision) return;
      keepBounded(
        customers,
        customerId,
        {
          decidedOn: {
            revision: decidedOn.revision,
            trusted: decidedOn.trusted,
            factsVersion: decidedOn.factsVersion,
          },
          heldCents: placement.standing.heldCents,
          unpaidProductIds: new Set(standing.unpaidProductIds),
          windows: standing.windows,
          charges: shareRules(placement.charges),
          address: placement.address,
          pricing: placement.pricing,
          placedThisMinute: standing.placedThisMinute,
          minuteEndsAt: standing.minuteEndsAt.getTime(),
        },
        maxCustomers,
      );
    },

    stock: learnStock,

    placed(customerId, before, order, stock) {
      if (before.factsVersion === factsVersion) learnStock(stock);
      const known = customers.get(customerId);
      if (!known || known.decidedOn.revision !== before.revision) {
        customers.delete(customerId);
        return;
      }
      const now = Date.now();
      known.decidedOn = { ...known.decidedOn, revision: before.revision + 1 };
      // In the store's currency, as the limit is (an order in a market at its rate).
      known.heldCents += toStoreMinor(order.totalCents, order.exchangeRate ?? 1);
      for (const line of order.lines) {
        known.unpaidProductIds.add(line.productId);
        // The write keeps an open window and opens the others until the hold ends.
        const open = known.windows.get(line.productId);
        if (!open || open.getTime() <= now) known.windows.set(line.productId, order.holdExpiresAt);
      }
      // The write counted it: in the window known, or in the one it opened if that had ended.
      if (known.minuteEndsAt <= now) {
        known.minuteEndsAt = now + RATE_WINDOW_SECONDS * 1000;
        known.placedThisMinute = 0;
      }
      known.placedThisMinute += 1;
    },

    recall(customerId, lines, now = Date.now()) {
      const known = customers.get(customerId);
      if (!known || known.decidedOn.factsVersion !== factsVersion) return null;
      const found = new Map<string, ProductFacts>();
      for (const line of lines) {
        const p = products.get(line.productId);
        if (!p) return null;
        found.set(p.id, p);
      }
      keepBounded(customers, customerId, known, maxCustomers);
      const ids = lines.map((l) => l.productId);
      const windowEnd = earliestWindow(known.windows, ids, now);
      return {
        placement: {
          wanted: lines.map((l) => ({ productId: l.productId, qty: l.qty, vehicle: null })),
          products: found,
          standing: {
            trusted: known.decidedOn.trusted,
            heldCents: known.heldCents,
            unpaidProductIds: ids.filter((id) => known.unpaidProductIds.has(id)),
          },
          charges: known.charges,
          address: known.address,
          pricing: known.pricing,
          vehicle: null,
          windowEnd,
        },
        decidedOn: { ...known.decidedOn, windowEnd },
        placedThisMinute: placedInWindow(known, now),
      };
    },
  };
}
