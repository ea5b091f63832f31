import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { sqlInts, sqlUuids } from "../db/sql-arrays";

/** Units of an order's product allocated at a location and not shipped yet. */
export interface Allocation {
  productId: string;
  locationId: string;
  code: string;
  name: string;
  qty: number;
}

/** The order's units waiting at each location, home first, then by priority and code. */
export async function allocationsOf(tx: DbOrTx, orderId: string): Promise<Allocation[]> {
  const rows = await tx.execute<{
    product_id: string;
    location_id: string;
    code: string;
    name: string;
    qty: number;
  }>(sql`
    select a.product_id, a.location_id, l.code, l.name, a.qty
      from stock_allocations a join stock_locations l on l.id = a.location_id
     where a.order_id = ${orderId}
     order by l.is_home desc, l.priority, l.code, a.product_id`);
  return rows.rows.map((r) => ({
    productId: r.product_id,
    locationId: r.location_id,
    code: r.code,
    name: r.name,
    qty: r.qty,
  }));
}

/** The home location: where units nobody allocated (orders before locations) ship from. */
export async function homeLocation(
  tx: DbOrTx,
): Promise<{ id: string; code: string; name: string }> {
  const rows = await tx.execute<{ id: string; code: string; name: string }>(
    sql`select id, code, name from stock_locations where is_home`,
  );
  return rows.rows[0]!;
}

/**
 * Units that shipped from a location leave its allocations (and so its stock on hand). The
 * caller holds the order's row lock and has checked that the location holds them.
 */
export async function shipAllocated(
  tx: DbOrTx,
  orderId: string,
  locationId: string,
  lines: { productId: string; qty: number }[],
): Promise<void> {
  if (lines.length === 0) return;
  await tx.execute(sql`
    with shipped as (
      select * from unnest(${sqlUuids(lines.map((l) => l.productId))},
                           ${sqlInts(lines.map((l) => l.qty))}) as s(product_id, qty)
    ),
    emptied as (
      delete from stock_allocations a using shipped s
       where a.order_id = ${orderId} and a.location_id = ${locationId}
         and a.product_id = s.product_id and a.qty <= s.qty
    )
    update stock_allocations a set qty = a.qty - s.qty from shipped s
     where a.order_id = ${orderId} and a.location_id = ${locationId}
       and a.product_id = s.product_id and a.qty > s.qty`);
}
