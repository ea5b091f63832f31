import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import type { LowAtLocation } from "../../contract/admin-home";

/**
 * A location's stock on sale of a product below the reorder level an admin set for it there
 * (`reorder_levels`; docs/inventory.md): the home location's on-sale share is the product's total
 * less what the other locations have. Least on sale (relative to its level) first, and how many
 * such rows there are in all. Inactive locations sell nothing: they are left out.
 */
export async function lowAtLocations(
  db: DbOrTx,
  limit: number,
): Promise<{ count: number; rows: LowAtLocation[] }> {
  const rows = await db.execute<{
    product_id: string;
    name: string;
    part_number: string;
    location: string;
    on_sale: number;
    level: number;
    total: number;
  }>(sql`
    with levels as (
      select r.product_id, r.level, l.name as location, p.name, p.part_number,
             case when l.is_home
                  then p.available_quantity
                       - coalesce((select sum(s.available) from location_stock s
                                    where s.product_id = p.id), 0)
                  else coalesce((select s.available from location_stock s
                                  where s.product_id = p.id and s.location_id = l.id), 0)
             end::int as on_sale
        from reorder_levels r
        join stock_locations l on l.id = r.location_id and l.active
        join products p on p.id = r.product_id
    )
    select product_id, name, part_number, location, on_sale, level,
           count(*) over ()::int as total
      from levels where on_sale < level
     order by on_sale - level, name, location
     limit ${limit}`);
  return {
    count: rows.rows[0]?.total ?? 0,
    rows: rows.rows.map((r) => ({
      productId: r.product_id,
      name: r.name,
      partNumber: r.part_number,
      location: r.location,
      onSale: r.on_sale,
      reorderLevel: r.level,
    })),
  };
}
