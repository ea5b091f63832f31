import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { sqlUuids } from "../db/sql-arrays";
import { unprocessable } from "../errors";
import { productFieldMessages } from "../../contract/products";

/**
 * Every writer of a product's stock total (the admin's form, the product CSV, the bulk sync) sets
 * the home location's share with it (docs/inventory.md "Locations"): a total below what the other
 * locations have on sale would leave the home location with less than nothing. These read and
 * refuse that, in the writer's transaction, after it locked or wrote the products' rows.
 */

/** What each of these products has on sale at the locations other than the home one. */
export async function onSaleElsewhere(tx: DbOrTx, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.execute<{ product_id: string; units: number }>(sql`
    select product_id, sum(available)::int as units from location_stock
     where product_id = any(${sqlUuids(ids)}) and available > 0
     group by product_id`);
  return new Map(rows.rows.map((r) => [r.product_id, r.units]));
}

/**
 * Refuses (422, naming the first such part) when one of these products' totals is now below what
 * its other locations have on sale: the caller's transaction rolls back.
 */
export async function refuseTotalsBelowElsewhere(tx: DbOrTx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx.execute<{ part_number: string; units: number }>(sql`
    select p.part_number, e.units
      from products p
      join (select product_id, sum(available)::int as units from location_stock
             where product_id = any(${sqlUuids(ids)}) group by product_id) e
        on e.product_id = p.id
     where p.available_quantity < e.units
     order by p.part_number
     limit 1`);
  const short = rows.rows[0];
  if (short) {
    throw unprocessable(
      `${short.part_number}: ${productFieldMessages.belowLocations(short.units)}`,
    );
  }
}
