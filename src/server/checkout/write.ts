import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import type { orderItems, orders, ShipToSnapshot } from "../db/schema";
import { sqlInts, sqlNullableInts, sqlTexts, sqlUuids } from "../db/sql-arrays";
import type { LineVehicle } from "../fitment/service";
import type { HoldShare, Inventory, StockMoves } from "../inventory/service";
import { rateHitCtes } from "../auth/rate-limit";
import { lockCustomerSql } from "../users/service";
import { factsUnchangedSql, placementRateKey, RATE_WINDOW_SECONDS } from "./read";
import type { Decision } from "./decide";

export interface Customer {
  id: string;
  email: string;
  name: string;
  /**
   * Whether the account's email is verified, as its session was read: an unverified one whose
   * holds are capped is placed in the locked transaction without trying the unlocked read first.
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

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** A decided order as it is written: its id is chosen before (the email queued with it names it). */
export type OrderToWrite = Decision & {
  id: string;
  delivery: Delivery;
  currency: string;
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
  stock: Pick<StockMoves, "takeWith">,
  customer: Customer,
  order: OrderToWrite,
): Promise<{ row: OrderRow; items: OrderItemRow[] }> {
  const result = await stock.takeWith<{ created_at: string }>(
    order.lines,
    orderWrites(customer, order),
    sql`select created_at from placed`,
  );
  return placedOrder(customer, order, new Date(result[0]!.created_at));
}

/**
 * What an order decided without the customer's lock was decided on, beyond the stock: the write
 * goes ahead only while all of it still holds (`writeOrderAtOnce`).
 */
export interface DecidedOn {
  /** The customer's revision: nothing of theirs changed (orders, cart, addresses). */
  revision: number;
  emailVerified: boolean;
  /** The version of the products', shipping's, tax's and trade's facts (migration 0042). */
  factsVersion: number;
  /** The customer's earliest open hold window on the order's products (null: none open). */
  windowEnd: Date | null;
}

/**
 * The same write as one statement without a transaction (the order path's: docs/decisions/
 * 011-checkout-workflow.md, "Placed in two statements"), after a read made without the
 * customer's lock, or decided from memory: it goes ahead only while what the order was decided
 * on still holds (`decidedOn`: the customer's revision, their email's verification, the facts'
 * version, their hold windows; a caller answered from memory still signed in; every line within
 * the stock and the hold `share`); else nothing is written, and `isStockOrCheckChanged` says so
 * (read again). It moves the customer's revision on, counts the placement against the per-minute
 * limit, and queues `queued` (the order email's insert, with the order). It waits for a locked
 * row `lockWaitMs` at most (`isLockWaitOver`: nothing is written). `stock`: each product's stock
 * on sale after the take.
 */
export async function writeOrderAtOnce(
  inventory: Pick<Inventory, "takeAtOnce">,
  customer: Customer,
  order: OrderToWrite,
  opts: { decidedOn: DecidedOn; share: HoldShare; queued?: SQL; lockWaitMs: number },
): Promise<{ row: OrderRow; items: OrderItemRow[]; stock: Map<string, number> }> {
  const { decidedOn } = opts;
  const writes = sql`
    unchanged as (${lockCustomerSql(customer.id, decidedOn.revision)}),
    ${rateHitCtes("hit", placementRateKey(customer.id), RATE_WINDOW_SECONDS)},
    ${opts.queued ? sql`queued as (${opts.queued}),` : sql``}
    ${orderWrites(customer, order)}`;
  const ids = sqlUuids(order.lines.map((l) => l.productId));
  const windowEnd = decidedOn.windowEnd?.toISOString() ?? null;
  const check = sql`exists (select 1 from unchanged
                             where email_verified = ${decidedOn.emailVerified})
    and (select date_trunc('milliseconds', min(expires_at)) from hold_windows
          where user_id = ${customer.id} and expires_at > now() and product_id = any(${ids}))
        is not distinct from ${windowEnd}::timestamptz
    and ${factsUnchangedSql(decidedOn.factsVersion, customer.stillSignedIn)}`;
  const result = await inventory.takeAtOnce<{
    created_at: string;
    stock: Record<string, number>;
  }>(
    order.lines,
    writes,
    sql`select created_at, (select json_object_agg(id, available_quantity) from taken) as stock
          from placed`,
    check,
    opts.lockWaitMs,
    opts.share,
  );
  const { created_at, stock } = result[0]!;
  return {
    ...placedOrder(customer, order, new Date(created_at)),
    stock: new Map(Object.entries(stock)),
  };
}

/**
 * The order's writes, as entries of a statement's `with`: the hold windows, the order and its
 * lines (and `also`); `placed` answers the order's `created_at`.
 */
function orderWrites(customer: Customer, order: OrderToWrite): SQL {
  const { lines, delivery, charges } = order;
  const vehicles = lineVehicles(order);
  const ids = sqlUuids(lines.map((l) => l.productId));
  const until = order.holdExpiresAt.toISOString();
  return sql`
    windows as (
      insert into hold_windows (user_id, product_id, expires_at)
      select ${customer.id}, p, ${until}::timestamptz from unnest(${ids}) as p
      on conflict (user_id, product_id) do update set expires_at =
        case when hold_windows.expires_at > now() then hold_windows.expires_at
             else excluded.expires_at end
    ),
    placed as (
      insert into orders (id, user_id, order_email, customer_name, total_cents, currency, phone,
                          address, po_reference, hold_expires_at, shipping_cents,
                          shipping_method, tax_cents, shipping_tax_cents, tax_name,
                          tax_rate_millipercent, tax_note, buyer_tax_id, ship_to, status)
      values (${order.id}, ${customer.id}, ${customer.email}, ${customer.name},
              ${order.totalCents}, ${order.currency}, ${delivery.phone}, ${delivery.address},
              ${delivery.poReference ?? null}, ${until}::timestamptz, ${charges.shippingCents},
              ${charges.shippingMethod}, ${charges.taxCents}, ${charges.shippingTaxCents},
              ${charges.taxName}, ${charges.taxRateMillipercent}, ${charges.taxNote ?? null},
              ${charges.buyerTaxId ?? null},
              ${delivery.shipTo ? JSON.stringify(delivery.shipTo) : null}::jsonb,
              ${statusOf(order)})
      returning id, created_at
    ),
    items as (
      insert into order_items (order_id, line, product_id, product_name, part_number,
                               unit_price_cents, qty, tax_cents, core_deposit_cents,
                               vehicle_base_vehicle_id, vehicle_engine_id, vehicle_label)
      select placed.id, l.line, l.product_id, l.name, l.part_number, l.price, l.qty, l.tax,
             l.core_deposit, l.vehicle_base_vehicle_id, l.vehicle_engine_id, l.vehicle_label
        from placed, unnest(${ids}, ${sqlTexts(lines.map((l) => l.productName))},
                            ${sqlTexts(lines.map((l) => l.partNumber))},
                            ${sqlInts(lines.map((l) => l.unitPriceCents))},
                            ${sqlInts(lines.map((l) => l.qty))},
                            ${sqlInts(lines.map((l) => l.taxCents))},
                            ${sqlInts(lines.map((l) => l.coreDepositCents))},
                            ${sqlNullableInts(vehicles.map((v) => v?.baseVehicleId ?? null))},
                            ${sqlNullableInts(vehicles.map((v) => v?.engineId ?? null))},
                            ${sqlTexts(vehicles.map((v) => v?.label ?? null))})
             with ordinality as l(product_id, name, part_number, price, qty, tax, core_deposit,
                                  vehicle_base_vehicle_id, vehicle_engine_id, vehicle_label,
                                  line)
    )${
      order.also
        ? sql`,
    also as (${order.also})`
        : sql``
    }`;
}

/** Each line's vehicle, in the lines' order (null: none). */
const lineVehicles = (order: OrderToWrite) =>
  order.lines.map((_, i) => order.vehicles?.[i] ?? null);

/** Over a spending limit, the order waits for an owner, holding its stock as an unpaid one does. */
const statusOf = (order: Decision) =>
  order.approval ? ("awaiting_approval" as const) : ("unpaid" as const);

/** The order and its lines as `orderWrites` writes them, created at `createdAt`. */
export function placedOrder(
  customer: Customer,
  order: OrderToWrite,
  createdAt: Date,
): { row: OrderRow; items: OrderItemRow[] } {
  const { lines, delivery, charges } = order;
  const vehicles = lineVehicles(order);
  const row: OrderRow = {
    id: order.id,
    userId: customer.id,
    orderEmail: customer.email,
    customerName: customer.name,
    totalCents: order.totalCents,
    shippingCents: charges.shippingCents,
    shippingMethod: charges.shippingMethod,
    taxCents: charges.taxCents,
    shippingTaxCents: charges.shippingTaxCents,
    taxName: charges.taxName,
    taxRateMillipercent: charges.taxRateMillipercent,
    taxNote: charges.taxNote ?? null,
    buyerTaxId: charges.buyerTaxId ?? null,
    shipTo: delivery.shipTo ?? null,
    currency: order.currency,
    phone: delivery.phone,
    address: delivery.address,
    poReference: delivery.poReference ?? null,
    status: statusOf(order),
    transactionId: null,
    paidWith: null,
    createdAt,
    holdExpiresAt: order.holdExpiresAt,
    paidAt: null,
    shippedAt: null,
    carrier: null,
    trackingNumber: null,
    cancelledAt: null,
    holdWarnedAt: null,
  };
  const items = lines.map((l, i) => ({
    orderId: order.id,
    line: i + 1,
    productId: l.productId,
    productName: l.productName,
    partNumber: l.partNumber,
    unitPriceCents: l.unitPriceCents,
    qty: l.qty,
    taxCents: l.taxCents,
    coreDepositCents: l.coreDepositCents,
    vehicleBaseVehicleId: vehicles[i]?.baseVehicleId ?? null,
    vehicleEngineId: vehicles[i]?.engineId ?? null,
    vehicleLabel: vehicles[i]?.label ?? null,
  }));
  return { row, items };
}
