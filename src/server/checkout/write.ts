import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import type { OrderItemRow, OrderRow } from "../orders/state";
import type { ShipToSnapshot } from "../orders/tables";
import { sqlUuids } from "../db/sql-arrays";
import { openHoldWindowsCte } from "../inventory/holds";
import { insertOrderCtes, newOrderRows } from "../orders/placement";
import type { LineVehicle } from "../vehicles/service";
import type { AllocateFor, HoldShare, Inventory, StockMoves } from "../inventory/service";
import { rateHitCtes } from "../auth/rate-limit";
import { lockCustomerSql } from "../users/service";
import { factsUnchangedSql, placementRateKey, RATE_WINDOW_SECONDS, trustedSql } from "./read";
import type { Decision } from "./decide";
import { placedOrderDataSql } from "../webhooks/events";
import { webhookEventCtes } from "../webhooks/outbox";

export interface Customer {
  id: string;
  email: string;
  name: string;
  /**
   * Whether the account's email is verified, as its session was read. An unverified account is
   * almost always a new customer (read.ts `trustedSql`): while new customers' holds are capped,
   * it is placed in the locked transaction without trying the unlocked read first.
   */
  emailVerified?: boolean;
  /**
   * The caller came from memory (`SessionUser.stillSignedIn`): the placement's first statement
   * checks that the session is still live and its user a customer, and refuses (401) if not.
   */
  stillSignedIn?: SQL;
}

/** Where an order goes and how to reach the customer. */
export interface Delivery {
  phone: string;
  address: string;
  poReference?: string | null;
  /** The structured address shipping and tax were computed for, when there is one. */
  shipTo?: ShipToSnapshot | null;
}

/** A decided order as it is written: its id is chosen before (the email queued with it names it). */
export type OrderToWrite = Decision & {
  id: string;
  delivery: Delivery;
  currency: string;
  /** Its market's rate (docs/pricing.md "The order's rate"); absent: 1, the store's currency. */
  exchangeRate?: number;
  /** When its hold ends (`holdUntil`). */
  holdExpiresAt: Date;
  /** The vehicle each line keeps, in the lines' order (null or absent: none). */
  vehicles?: (LineVehicle | null)[];
  /** More writes of the same statement: a data-modifying query (`delete from …`). */
  also?: SQL;
};

/**
 * When a new order's hold ends: `holdMs` from now, but never later than an open window of the
 * same account on one of its products (a deleted order's, `windowEnd`), so deleting and
 * re-ordering does not renew a hold; windows open, ending then, for its other products.
 */
export function holdUntil(windowEnd: Date | null, holdMs: number, now = Date.now()): Date {
  const fresh = new Date(now + holdMs);
  return windowEnd && windowEnd < fresh ? windowEnd : fresh;
}

/**
 * Writes a decided order and takes its stock in one statement, in the caller's transaction: the
 * order, its lines, the account's hold windows, the stock (through the inventory's `takeWith`:
 * the product rows locked in id order, the rules re-checked in SQL, a line that no longer fits
 * refusing the whole order) and `also`, the caller's other writes (a checkout empties the cart
 * here).
 */
export async function writeOrder(
  tx: DbOrTx,
  stock: Pick<StockMoves, "takeWith" | "backorder">,
  customer: Customer,
  order: OrderToWrite,
  take?: Parameters<StockMoves["takeWith"]>[4],
): Promise<{ row: OrderRow; items: OrderItemRow[] }> {
  // Units on backorder are not taken now (the minimum was checked on the whole line).
  const waiting = order.lines.flatMap((l, i) =>
    l.backordered ? [{ line: i + 1, productId: l.productId, qty: l.backordered }] : [],
  );
  const result = await stock.takeWith<{ created_at: string; number: number }>(
    order.lines.map((l) => ({ productId: l.productId, qty: l.qty - (l.backordered ?? 0) })),
    allocateFor(order),
    orderWrites(customer, order),
    sql`select created_at, number from placed`,
    // The minimum was checked on the whole line, with the buyer's minimum (a retail buyer's one).
    waiting.length > 0 || order.belowTradeMinimum ? { ...take, checkMinimum: false } : take,
  );
  await stock.backorder(order.id, waiting);
  return newOrderRows(customer, order, new Date(result[0]!.created_at), result[0]!.number);
}

/**
 * What an order decided without the customer's lock was decided on, beyond the stock: the write
 * goes ahead only while all of it still holds (`writeOrderAtOnce`).
 */
export interface DecidedOn {
  /** The customer's revision: nothing of theirs changed (orders, cart, addresses). */
  revision: number;
  /** Trusted or a new customer (read.ts `trustedSql`): their holds' length and cap. */
  trusted: boolean;
  /** The version of the products', shipping's, tax's and trade's facts (migration 0042). */
  factsVersion: number;
  /** The customer's earliest open hold window on the order's products (null: none open). */
  windowEnd: Date | null;
}

/**
 * The same write as one statement without a transaction (the order path's: docs/decisions/
 * 011-checkout-workflow.md, "Placed in two statements"), after a read made without the
 * customer's lock, or decided from memory: it goes ahead only while what the order was decided
 * on still holds (`decidedOn`: the customer's revision, whether they are trusted, the facts'
 * version, their hold windows; a caller answered from memory still signed in; every line within
 * the stock and the hold `share`); else nothing is written, and `isStockOrCheckChanged` says so
 * (read again). It moves the customer's revision on, counts the placement against the per-minute
 * limit, and queues `queued` (the order email's insert, with the order). It waits for a locked
 * row `lockWaitMs` at most (`isLockWaitOver`: nothing is written). `stock`: each product's stock
 * on sale after the take.
 */
export async function writeOrderAtOnce(
  inventory: Pick<Inventory, "db" | "takeAtOnce">,
  customer: Customer,
  order: OrderToWrite,
  opts: {
    decidedOn: DecidedOn;
    share: HoldShare;
    queued?: SQL;
    lockWaitMs: number;
    /**
     * The delivery window promised with the order (shipping/delivery-promise.ts
     * `promiseBeforeWrite`): its `with` entry, and the allocation the window was worked out from,
     * which the statement must make (else nothing is written: `isStockOrCheckChanged`).
     */
    promise?: { promised: SQL; expect: string };
  },
): Promise<{ row: OrderRow; items: OrderItemRow[]; stock: Map<string, number> }> {
  const { decidedOn } = opts;
  // `order.placed` for the webhooks that want it (webhooks/outbox.ts; none: nothing added).
  const events = webhookEventCtes(
    inventory.db,
    "order_placed",
    "order.placed",
    sql`placed`,
    placedOrderDataSql({
      userId: customer.id,
      status: "unpaid",
      totalCents: order.totalCents,
      currency: order.currency,
    }),
  );
  const writes = sql`
    unchanged as (${lockCustomerSql(customer.id, decidedOn.revision)}),
    ${rateHitCtes("hit", placementRateKey(customer.id), RATE_WINDOW_SECONDS)},
    ${orderWrites(customer, order)}
    ${opts.queued ? sql`, queued as (${opts.queued})` : sql``}
    ${events ? sql`, ${events}` : sql``}
    ${opts.promise ? sql`, ${opts.promise.promised}` : sql``}`;
  const ids = sqlUuids(order.lines.map((l) => l.productId));
  const windowEnd = decidedOn.windowEnd?.toISOString() ?? null;
  const check = sql`exists (select 1 from unchanged
                             where ${trustedSql(sql`unchanged.id`)} = ${decidedOn.trusted})
    and (select date_trunc('milliseconds', min(expires_at)) from hold_windows
          where user_id = ${customer.id} and expires_at > now() and product_id = any(${ids}))
        is not distinct from ${windowEnd}::timestamptz
    and ${factsUnchangedSql(decidedOn.factsVersion, customer.stillSignedIn)}
    and ${writtenBeforeTake([
      ...["hit", "placed", "items", "windows"],
      ...(opts.queued ? ["queued"] : []),
      ...(opts.promise ? ["promised"] : []),
    ])}`;
  const result = await inventory.takeAtOnce<{
    created_at: string;
    number: number;
    stock: Record<string, number>;
  }>(
    order.lines,
    allocateFor(order),
    writes,
    sql`select created_at, number,
               (select json_object_agg(id, available_quantity) from taken) as stock
          from placed`,
    check,
    opts.lockWaitMs,
    opts.share,
    opts.promise?.expect,
  );
  const { created_at, number, stock } = result[0]!;
  return {
    ...newOrderRows(customer, order, new Date(created_at), number),
    stock: new Map(Object.entries(stock)),
  };
}

/**
 * The statement's writes that do not depend on the take, run by the check (which is evaluated
 * before `taken` locks the products' rows: inventory/service.ts `takeStatement`): a data-modifying
 * `with` entry runs when it is first read, else at the statement's end. So a product's row is
 * held for the take, the allocation and the commit only, not for the order's inserts as well: a
 * hot product's orders queue for less. Each entry named answers rows (`returning`), and writes
 * only the customer's own rows, which the check's customer lock already orders. Always true.
 */
const writtenBeforeTake = (entries: string[]): SQL =>
  sql`(${sql.join(
    entries.map((e) => sql`(select count(*) from ${sql.identifier(e)})`),
    sql` + `,
  )}) >= 0`;

/** Where the order's units are allocated: its id, and the destination they ship to. */
const allocateFor = (order: OrderToWrite): AllocateFor => ({
  orderId: order.id,
  shipTo: order.delivery.shipTo ?? null,
});

/**
 * The order's writes, as entries of a statement's `with`: the hold windows (the inventory's),
 * the order and its lines (the orders') and `also`; `placed` answers the order's `created_at`.
 */
function orderWrites(customer: Customer, order: OrderToWrite): SQL {
  const windows = openHoldWindowsCte(
    "windows",
    customer.id,
    order.lines.map((l) => l.productId),
    order.holdExpiresAt,
  );
  const also = order.also ? sql`, also as (${order.also})` : sql``;
  return sql`${windows}, ${insertOrderCtes(customer, order)}${also}`;
}
