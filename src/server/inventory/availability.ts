import type { SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { sqlUuids } from "../db/sql-arrays";
import type { LocationOnSale, ProductBackorder } from "../../contract/availability";

/*
 * Honest availability (docs/inventory.md "What buyers see"): reads only. A product's stock on sale
 * at each active location and what it offers on backorder beyond that, as columns a reader of
 * products (the catalog's list, detail and part page) selects in its own statement, or for a few
 * products at once (quick order). The inventory never imports the catalog: the caller passes its
 * product's id and stock total as SQL.
 */

/** What a product answer carries of its availability. */
export interface Availability {
  stockByLocation: LocationOnSale[];
  backorder: ProductBackorder | null;
}

/**
 * Each active location with units of the product on sale, the home location first, then by
 * priority and code: the others' rows of `location_stock`, and the home location's share (the
 * total less theirs, docs/inventory.md "Locations"). A store with one location reads one row.
 */
const stockByLocationSql = (id: SQL, total: SQL) => sql<LocationOnSale[]>`(
  select coalesce(json_agg(json_build_object('code', l.code, 'name', l.name, 'city', l.city,
           'onSale', s.on_sale) order by l.is_home desc, l.priority, l.code), '[]'::json)
    from stock_locations l
    cross join lateral (
      select case when l.is_home
                  then ${total} - coalesce((select sum(e.available) from location_stock e
                                              where e.product_id = ${id}), 0)
                  else coalesce((select e.available from location_stock e
                                  where e.product_id = ${id} and e.location_id = l.id), 0)
             end::int as on_sale) s
   where l.active and s.on_sale > 0)`;

/**
 * The product's backorder offer for one more unit (`backorder_offer`, migration 0073), and how
 * many units arriving by its date are not promised yet (`more`; null: no bound or none); null
 * when the product takes no backorders.
 */
const backorderSql = (id: SQL) => sql<ProductBackorder | null>`(
  select json_build_object('available', o.on_date is not null, 'expectedOn', o.on_date::text,
           'more', case when o.on_date is not null then nullif(greatest(0, (
             select coalesce(sum(s.qty - s.received), 0) from incoming_supply s
              where s.product_id = ${id} and s.status = 'open' and s.qty > s.received
                and s.expected_on <= o.on_date) - (
             select coalesce(sum(b.waiting), 0) from backorders b
              where b.product_id = ${id} and b.waiting > 0)), 0)::int end)
    from backorder_offer(${id}, 1) o)`;

/**
 * The availability of the product whose id and stock total are these SQL expressions of the
 * caller's statement, as two JSON columns.
 */
export function availabilityColumns(productId: SQL, availableQuantity: SQL) {
  return {
    stockByLocation: stockByLocationSql(productId, availableQuantity),
    backorder: backorderSql(productId),
  };
}

/** The availability of these products, by id (one statement; unknown ids are absent). */
export async function availabilityOf(
  tx: DbOrTx,
  productIds: string[],
): Promise<Map<string, Availability>> {
  if (productIds.length === 0) return new Map();
  const id = sql.raw("p.id");
  const columns = availabilityColumns(id, sql.raw("p.available_quantity"));
  const rows = await tx.execute<{
    id: string;
    stock_by_location: LocationOnSale[];
    backorder: ProductBackorder | null;
  }>(sql`
    select p.id, ${columns.stockByLocation} as stock_by_location, ${columns.backorder} as backorder
      from products p where p.id = any(${sqlUuids([...new Set(productIds)])})`);
  return new Map(
    rows.rows.map((r) => [r.id, { stockByLocation: r.stock_by_location, backorder: r.backorder }]),
  );
}
