import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { sqlInts, sqlTexts, sqlUuids, writeInStatements } from "../db/sql-arrays";
import { holdingStatuses } from "../../contract/orders";

/**
 * Stock levels set by part number, set-based (the bulk stock sync, docs/bulk-sync.md): the
 * inventory module's write of many products' stock at once, beside the moves of `service.ts`.
 *
 * The level a line gives is the stock the caller can sell, units held by the store's unpaid
 * orders included: what goes on sale is that level less the units those orders hold, and a level
 * below them is refused (the orders keep their stock). The same file sent twice changes nothing
 * the second time, even after orders were placed or cancelled in between.
 */

/** One line: the part (its normalised number) and its stock. */
export interface StockLevel {
  line: number;
  key: string;
  stock: number;
}

/** What one line comes to, before anything is written. */
export type StockLevelCheck =
  | { line: number; outcome: "unknown" }
  | { line: number; outcome: "below-held"; held: number }
  /** On sale less than the other locations have on sale (the home location's share below 0). */
  | { line: number; outcome: "below-elsewhere"; elsewhere: number }
  | {
      line: number;
      outcome: "unchanged" | "updated";
      productId: string;
      /** On sale before and after (after = the level less the units held). */
      before: number;
      after: number;
    };

/**
 * Locks the lines' products (in id order, as every stock move does, so a checkout sharing them
 * waits rather than deadlocks) and checks each line against them and the units their unpaid
 * orders hold and what its other locations have on sale (docs/inventory.md), read after the lock: an order placed meanwhile is counted or waits for the
 * caller's transaction. Lines must name each product once. Nothing is written: `writeStockLevels`
 * writes the lines the caller keeps, in the same transaction.
 */
export async function checkStockLevels(
  tx: DbOrTx,
  levels: readonly StockLevel[],
): Promise<StockLevelCheck[]> {
  if (levels.length === 0) return [];
  const keys = sqlTexts(levels.map((l) => l.key));
  // A join, not `= any(…)`: an array of 100,000 numbers compared row by row is quadratic.
  await tx.execute(sql`
    select p.id from products p join unnest(${keys}) as k(key) on p.part_number_normalized = k.key
    order by p.id for no key update of p`);
  const rows = await tx.execute<{
    line: number;
    id: string | null;
    before: number | null;
    held: number;
    elsewhere: number;
  }>(sql`
    with wanted as (
      select * from unnest(${sqlInts(levels.map((l) => l.line))}, ${keys}) as w(line, key)
    ),
    matched as (
      select w.line, p.id, p.available_quantity as before
        from wanted w left join products p on p.part_number_normalized = w.key
    ),
    held as (
      select i.product_id, sum(i.qty)::int as held
        from orders o join order_items i on i.order_id = o.id
       where o.status = any(${sqlTexts([...holdingStatuses])})
         and i.product_id in (select id from matched where id is not null)
       group by i.product_id
    ),
    elsewhere as (
      select product_id, sum(available)::int as elsewhere from location_stock
       where product_id in (select id from matched where id is not null)
       group by product_id
    )
    select m.line, m.id, m.before, coalesce(h.held, 0) as held,
           coalesce(e.elsewhere, 0) as elsewhere
      from matched m left join held h on h.product_id = m.id
      left join elsewhere e on e.product_id = m.id`);
  const byLine = new Map(rows.rows.map((r) => [r.line, r]));
  return levels.map((l): StockLevelCheck => {
    const row = byLine.get(l.line);
    if (!row || row.id === null) return { line: l.line, outcome: "unknown" };
    if (l.stock < row.held) return { line: l.line, outcome: "below-held", held: row.held };
    const after = l.stock - row.held;
    if (after < row.elsewhere) {
      return { line: l.line, outcome: "below-elsewhere", elsewhere: row.elsewhere };
    }
    return {
      line: l.line,
      outcome: after === row.before ? "unchanged" : "updated",
      productId: row.id,
      before: row.before!,
      after,
    };
  });
}

/**
 * Rows one write statement takes: a statement is bounded by DB_STATEMENT_TIMEOUT_SECONDS, and
 * 20,000 updates that cannot be HOT (full pages: every index written) take about 2.5 s.
 */
export const WRITE_CHUNK = 20_000;

/**
 * Writes the stock on sale of these products, a statement per WRITE_CHUNK rows, in the caller's
 * transaction (after `checkStockLevels` locked them). The products' trigger tells every
 * process's catalog cache (NOTIFY `stock`, delivered at commit); the caller clears its own
 * process's after commit.
 */
export async function writeStockLevels(
  tx: DbOrTx,
  changes: readonly { productId: string; after: number }[],
): Promise<number> {
  return writeInStatements(
    tx,
    changes,
    WRITE_CHUNK,
    (chunk) => sql`
      update products p set available_quantity = c.after
        from unnest(${sqlUuids(chunk.map((c) => c.productId))},
                    ${sqlInts(chunk.map((c) => c.after))}) as c(id, after)
       where p.id = c.id and p.available_quantity is distinct from c.after`,
  );
}
