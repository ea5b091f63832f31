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

/**
 * Writes an order's backordered units (the caller holds the products' row locks, so the queue's
 * order is the order of placement) and dates them: the lead time's date kept as the fallback,
 * the date promised now from the open supply; the order itself tells its buyer that date.
 */
export async function putOnBackorder(
  tx: DbOrTx,
  orderId: string,
  lines: NewBackorder[],
): Promise<void> {
  if (lines.length === 0) return;
  const ids = sqlUuids(lines.map((l) => l.productId));
  await tx.execute(sql`
    insert into backorders (order_id, line, product_id, qty, waiting, lead_on, created_at)
    select ${orderId}::uuid, l.line, l.id, l.qty, l.qty,
           current_date + p.lead_days, clock_timestamp()
      from unnest(${sqlInts(lines.map((l) => l.line))}, ${ids}, ${sqlInts(lines.map((l) => l.qty))})
           as l(line, id, qty)
      left join backorder_policies p on p.product_id = l.id`);
  await promiseDates(
    tx,
    lines.map((l) => l.productId),
  );
  await tx.execute(sql`
    update backorders set told = true, told_on = promised_on where order_id = ${orderId}`);
}

/**
 * Dates promised to these products' waiting backorders again (the caller holds the products' row
 * locks); a buyer whose date moved is emailed by the "backorder-dates" job
 * (`orders/backorder-mail.ts`). Returns how many lines' dates moved.
 */
export async function promiseDates(tx: DbOrTx, productIds: string[]): Promise<number> {
  if (productIds.length === 0) return 0;
  const rows = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n
      from unnest(${sqlUuids([...new Set(productIds)])}) as p(id)
      cross join lateral promise_backorders(p.id) c`);
  return rows.rows[0]!.n;
}

/** A waiting line whose promised date moved since its buyer was last told. */
export interface UntoldDate {
  backorderId: string;
  orderId: string;
  line: number;
  waiting: number;
  was: string | null;
  now: string | null;
}

/**
 * Up to `orders` orders' waiting lines whose date moved since their buyers were last told,
 * locked until the caller's transaction ends (another process running the job skips them).
 */
export async function untoldDates(tx: DbOrTx, orders: number): Promise<UntoldDate[]> {
  const rows = await tx.execute<{
    id: string;
    order_id: string;
    line: number;
    waiting: number;
    told_on: string | null;
    promised_on: string | null;
  }>(sql`
    select b.id, b.order_id, b.line, b.waiting, b.told_on::text as told_on,
           b.promised_on::text as promised_on
      from backorders b
     where b.order_id in (
             select distinct order_id from backorders
              where waiting > 0 and told and promised_on is distinct from told_on
              limit ${orders})
       and b.waiting > 0 and b.told and b.promised_on is distinct from b.told_on
     order by b.order_id, b.line
       for update skip locked`);
  return rows.rows.map((r) => ({
    backorderId: r.id,
    orderId: r.order_id,
    line: r.line,
    waiting: r.waiting,
    was: r.told_on,
    now: r.promised_on,
  }));
}

/** These lines' buyers were told their new dates. */
export async function markTold(tx: DbOrTx, told: UntoldDate[]): Promise<void> {
  if (told.length === 0) return;
  await tx.execute(sql`
    update backorders b set told_on = t.promised_on
      from (select b2.id, b2.promised_on from backorders b2
             where b2.id = any(${sqlUuids(told.map((t) => t.backorderId))})) t
     where b.id = t.id`);
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

/**
 * The units of an order's lines that `cancelWaiting` cancelled when its hold ran out, by line:
 * what a payment that arrives after all puts back on backorder (`requeueCancelled`).
 */
export async function cancelledByLine(tx: DbOrTx, orderId: string): Promise<Map<number, number>> {
  const rows = await tx.execute<{ line: number; cancelled: number }>(sql`
    select line, cancelled from backorders where order_id = ${orderId} and cancelled > 0`);
  return new Map(rows.rows.map((r) => [r.line, r.cancelled]));
}

/**
 * The order's cancelled units wait again (it was paid after its hold ran out), at the end of
 * their products' queues: the place they had was given up with the hold. The caller holds the
 * products' row locks and dates the queues again. Returns the products.
 */
export async function requeueCancelled(tx: DbOrTx, orderId: string): Promise<string[]> {
  const rows = await tx.execute<{ product_id: string }>(sql`
    update backorders set waiting = cancelled, cancelled = 0, created_at = now()
     where order_id = ${orderId} and cancelled > 0
    returning product_id`);
  return [...new Set(rows.rows.map((r) => r.product_id))];
}

/**
 * One order line's waiting units will not be served (its buyer or an admin cancelled them):
 * answers how many, and the product, whose queue the caller dates again. The caller holds the
 * product's row lock.
 */
export async function cancelLineWaiting(
  tx: DbOrTx,
  orderId: string,
  line: number,
): Promise<{ productId: string; units: number } | null> {
  const rows = await tx.execute<{ product_id: string; units: number }>(sql`
    with before as (
      select id, waiting from backorders
       where order_id = ${orderId} and line = ${line} and waiting > 0 for update
    )
    update backorders b set cancelled = b.cancelled + b.waiting, waiting = 0
      from before where b.id = before.id
    returning b.product_id, before.waiting as units`);
  const row = rows.rows[0];
  return row ? { productId: row.product_id, units: row.units } : null;
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
