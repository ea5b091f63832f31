import { type SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { sqlUuids } from "../db/sql-arrays";

/*
 * The units sold per part, month of sale and lot (`shipped_units`, docs/warranty.md "The
 * report"): added to as a shipment is written, rebuilt for the parts and months whose lots an
 * import changed. Sold: shipped units of an order's lines whose product the catalog still has,
 * less a warranty claim's $0 replacement (not a sale). Migration 0069 filled it the same way.
 */

/** The shipped lines `where` selects, summed per part, month of sale and lot. */
const unitsOf = (where: SQL) => sql`
  select oi.product_id, date_trunc('month', o.created_at at time zone 'UTC')::date as month,
         coalesce(sl.lot, '') as lot, sum(sl.qty)::int as qty,
         max(oi.part_number) as part_number, max(oi.product_name) as product_name
    from shipment_lines sl
    join order_items oi on oi.order_id = sl.order_id and oi.line = sl.line
    join orders o on o.id = sl.order_id
   where oi.product_id is not null and o.paid_with is distinct from 'warranty' and ${where}
   group by 1, 2, 3`;

/** A shipment just written: its units added to what is sold. */
export async function addShippedUnits(tx: DbOrTx, shipmentId: string): Promise<void> {
  await tx.execute(sql`
    insert into shipped_units (product_id, month, lot, qty, part_number, product_name)
    ${unitsOf(sql`sl.shipment_id = ${shipmentId}`)}
    on conflict (product_id, month, lot) do update
       set qty = shipped_units.qty + excluded.qty,
           part_number = excluded.part_number, product_name = excluded.product_name`);
}

/**
 * The orders' shipped lines changed lot: every part and month of sale of those orders counted
 * again from the shipped lines (a handful of rows each: an admin's import, not a sale).
 */
export async function recountShippedUnits(tx: DbOrTx, orderIds: string[]): Promise<void> {
  const ids = sqlUuids(orderIds);
  const month = sql`date_trunc('month', o.created_at at time zone 'UTC')::date`;
  const keys = sql`
    select distinct oi.product_id, ${month} from orders o join order_items oi on oi.order_id = o.id
     where o.id = any(${ids}) and oi.product_id is not null`;
  // Two statements: a delete and an insert of the same keys in one would meet each other.
  await tx.execute(sql`
    delete from shipped_units where (product_id, month) in (${keys})`);
  await tx.execute(sql`
    insert into shipped_units (product_id, month, lot, qty, part_number, product_name)
    ${unitsOf(sql`(oi.product_id, ${month}) in (${keys})`)}`);
}
