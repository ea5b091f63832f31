import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { sqlInts, sqlUuids } from "../db/sql-arrays";

/*
 * Backorders (docs/inventory.md "Backorders"): the units of an order line that were not on the
 * shelf when it was placed, waiting for supply first placed, first served, each with the date it
 * is promised. The inventory is their one writer; the SQL functions are migration 0073's.
 */

/** What a product offers more units on backorder at (`backorder_offer`). */
export interface BackorderOffer {
  /** The date promised to them; null: nothing coming covers them and there is no lead time. */
  on: string | null;
  /** The most units it takes without a lead time (open supply not yet promised); null: no bound. */
  most: number | null;
}

/**
 * The offers of these products for these many units on backorder each; a product that takes no
 * backorders is absent.
 */
export async function backorderOffers(
  tx: DbOrTx,
  wanted: { productId: string; units: number }[],
): Promise<Map<string, BackorderOffer>> {
  const asked = wanted.filter((w) => w.units > 0);
  if (asked.length === 0) return new Map();
  const rows = await tx.execute<{
    product_id: string;
    on_date: string | null;
    most: number | null;
  }>(
    sql`select w.id as product_id, o.on_date::text as on_date, o.most
          from unnest(${sqlUuids(asked.map((w) => w.productId))},
                      ${sqlInts(asked.map((w) => w.units))}) as w(id, units)
          cross join lateral backorder_offer(w.id, w.units) o`,
  );
  return new Map(rows.rows.map((r) => [r.product_id, { on: r.on_date, most: r.most }]));
}

/** An order line's units put on backorder at placement. */
export interface NewBackorder {
  line: number;
  productId: string;
  qty: number;
}

/** A date's change for a waiting backorder (its order is told). */
export interface PromiseChange {
  orderId: string;
  backorderId: string;
  was: string | null;
  now: string | null;
}

/**
 * Writes an order's backordered units (the caller holds the products' row locks, so the queue's
 * order is the order of placement) and dates them: the lead time's date kept as the fallback,
 * the date promised now from the open supply.
 */
export async function putOnBackorder(
  tx: DbOrTx,
  orderId: string,
  lines: NewBackorder[],
): Promise<PromiseChange[]> {
  if (lines.length === 0) return [];
  const ids = sqlUuids(lines.map((l) => l.productId));
  await tx.execute(sql`
    insert into backorders (order_id, line, product_id, qty, waiting, lead_on, created_at)
    select ${orderId}::uuid, l.line, l.id, l.qty, l.qty,
           current_date + p.lead_days, clock_timestamp()
      from unnest(${sqlInts(lines.map((l) => l.line))}, ${ids}, ${sqlInts(lines.map((l) => l.qty))})
           as l(line, id, qty)
      left join backorder_policies p on p.product_id = l.id`);
  // The new lines' own dates are not changes: the order's pages and emails say them.
  const changes = await promiseDates(
    tx,
    lines.map((l) => l.productId),
  );
  return changes.filter((c) => c.orderId !== orderId);
}

/**
 * Told, in the transaction that changed them, of dates promised to waiting backorders that
 * changed (the buyers are emailed: composed at startup, as the inventory imports no mail).
 */
export type PromisesChanged = (tx: DbOrTx, changes: PromiseChange[]) => Promise<void>;

/** `promiseDates`, and the buyers whose date moved told (the caller holds the products' locks). */
export async function redate(
  tx: DbOrTx,
  productIds: string[],
  tell: PromisesChanged | undefined,
): Promise<void> {
  const changes = await promiseDates(tx, productIds);
  if (changes.length > 0) await tell?.(tx, changes);
}

/** Dates promised to these products' waiting backorders again; the changes, by order. */
export async function promiseDates(tx: DbOrTx, productIds: string[]): Promise<PromiseChange[]> {
  if (productIds.length === 0) return [];
  const rows = await tx.execute<{
    backorder_id: string;
    order_id: string;
    was: string | null;
    now_on: string | null;
  }>(sql`
    select c.backorder_id, c.order_id, c.was::text as was, c.now_on::text as now_on
      from unnest(${sqlUuids([...new Set(productIds)])}) as p(id)
      cross join lateral promise_backorders(p.id) c`);
  return rows.rows.map((r) => ({
    orderId: r.order_id,
    backorderId: r.backorder_id,
    was: r.was,
    now: r.now_on,
  }));
}

/**
 * Units that came on sale at a location go to the product's waiting backorders first (first
 * placed, first served), allocated to their orders there. The caller holds the product's row
 * lock. Returns how many were allocated.
 */
export async function fillBackorders(
  tx: DbOrTx,
  productId: string,
  locationId: string,
  units: number,
): Promise<number> {
  if (units <= 0) return 0;
  const rows = await tx.execute<{ filled: number }>(
    sql`select fill_backorders(${productId}::uuid, ${locationId}::uuid, ${units}::int) as filled`,
  );
  return rows.rows[0]!.filled;
}

/**
 * These orders' waiting units will not be served (the orders were cancelled or deleted): the
 * products' queues move up. The caller holds the products' row locks. Returns the products.
 */
export async function cancelWaiting(tx: DbOrTx, orderIds: string[]): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const rows = await tx.execute<{ product_id: string }>(sql`
    update backorders set cancelled = cancelled + waiting, waiting = 0
     where order_id = any(${sqlUuids(orderIds)}) and waiting > 0
    returning product_id`);
  return [...new Set(rows.rows.map((r) => r.product_id))];
}

/** An order line's backordered units as its pages show them. */
export interface LineBackorder {
  line: number;
  /** Units put on backorder when the order was placed. */
  qty: number;
  waiting: number;
  cancelled: number;
  promisedOn: string | null;
}

/** The backordered units of these orders' lines, by order. */
export async function backordersOf(
  tx: DbOrTx,
  orderIds: string[],
): Promise<Map<string, LineBackorder[]>> {
  const found = new Map<string, LineBackorder[]>();
  if (orderIds.length === 0) return found;
  const rows = await tx.execute<{
    order_id: string;
    line: number;
    qty: number;
    waiting: number;
    cancelled: number;
    promised_on: string | null;
  }>(sql`
    select order_id, line, qty, waiting, cancelled, promised_on::text as promised_on
      from backorders where order_id = any(${sqlUuids(orderIds)}) order by order_id, line`);
  for (const r of rows.rows) {
    const list = found.get(r.order_id) ?? [];
    list.push({
      line: r.line,
      qty: r.qty,
      waiting: r.waiting,
      cancelled: r.cancelled,
      promisedOn: r.promised_on,
    });
    found.set(r.order_id, list);
  }
  return found;
}

/** Whether a product takes backorders, and its lead time (the caller holds its row lock). */
export async function setBackorderPolicy(
  tx: DbOrTx,
  productId: string,
  policy: { takes: boolean; leadDays: number | null },
): Promise<void> {
  if (!policy.takes) {
    await tx.execute(sql`delete from backorder_policies where product_id = ${productId}`);
    return;
  }
  await tx.execute(sql`
    insert into backorder_policies (product_id, lead_days) values (${productId}, ${policy.leadDays})
    on conflict (product_id) do update set lead_days = excluded.lead_days, updated_at = now()`);
}
