import { sql } from "drizzle-orm";
import type { TestApp } from "./test-app";

/**
 * A product's stock at each location it has any (docs/inventory.md): by location name, its units
 * on sale (the home location's derived share: the total less what the others hold) and allocated.
 */
export async function stockAtLocations(
  t: TestApp,
  productId: string,
): Promise<Record<string, [onSale: number, allocated: number]>> {
  const rows = await t.database.db.execute<{ name: string; on_sale: number; allocated: number }>(
    sql`
    select l.name,
           case when l.is_home
                then p.available_quantity
                     - coalesce((select sum(available) from location_stock
                                  where product_id = p.id), 0)
                else coalesce(s.available, 0) end::int as on_sale,
           coalesce((select sum(qty) from stock_allocations a
                      where a.product_id = p.id and a.location_id = l.id), 0)::int as allocated
      from stock_locations l cross join products p
      left join location_stock s on s.location_id = l.id and s.product_id = p.id
     where p.id = ${productId}
       and (l.is_home or s.product_id is not null
            or exists (select 1 from stock_allocations a
                        where a.product_id = p.id and a.location_id = l.id))
     order by l.is_home desc, l.name`,
  );
  return Object.fromEntries(rows.rows.map((r) => [r.name, [r.on_sale, r.allocated]]));
}
