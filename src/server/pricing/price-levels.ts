import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { sqlInts, sqlTexts, sqlUuids, writeInStatements } from "../db/sql-arrays";
import type { PriceBreak } from "../money";
import { setListPrices } from "../catalog/writes";

/**
 * Prices set by part number, set-based (the bulk price sync, docs/bulk-sync.md): a product's list
 * price, or its unit price in a price list named by the line, under the rules the admin screens
 * apply (a quantity break stays cheaper than the price it lowers). The pricing module's write of
 * many prices at once.
 */

/** One line: the part (its normalised number), the price in cents and the list (null: list price). */
export interface PriceLevel {
  line: number;
  key: string;
  cents: number;
  /** A price list's name (compared case-insensitively); null for the product's list price. */
  priceList: string | null;
}

export type PriceTarget =
  { kind: "list"; productId: string } | { kind: "entry"; priceListId: string; productId: string };

export type PriceLevelCheck =
  | { line: number; outcome: "unknown-part" | "unknown-list" | "break-not-cheaper" }
  | { line: number; outcome: "unchanged" | "updated"; target: PriceTarget; cents: number };

/**
 * Checks each line against the product (and its entry in the named list), locking what it would
 * change: the products whose list price a line sets (in id order, as stock moves lock them) and
 * the list entries a line sets. Lines must name each (part, list) once. Nothing is written.
 */
export async function checkPriceLevels(
  tx: DbOrTx,
  levels: readonly PriceLevel[],
): Promise<PriceLevelCheck[]> {
  if (levels.length === 0) return [];
  const names = [
    ...new Set(levels.flatMap((l) => (l.priceList ? [l.priceList.toLowerCase()] : []))),
  ];
  const lists =
    names.length === 0
      ? []
      : (
          await tx.execute<{ id: string; name: string }>(sql`
            select id, lower(name) as name from price_lists where lower(name) = any(${sqlTexts(names)})`)
        ).rows;
  const listId = new Map(lists.map((l) => [l.name, l.id]));

  const listKeys = [...new Set(levels.filter((l) => !l.priceList).map((l) => l.key))];
  if (listKeys.length > 0) {
    // Joins, not `= any(…)`: an array of 100,000 numbers compared row by row is quadratic.
    await tx.execute(sql`
      select p.id from products p
        join unnest(${sqlTexts(listKeys)}) as k(key) on p.part_number_normalized = k.key
       order by p.id for no key update of p`);
  }
  const allKeys = [...new Set(levels.map((l) => l.key))];
  const products = await tx.execute<{
    key: string;
    id: string;
    price_cents: number;
    breaks: PriceBreak[];
  }>(sql`
    select p.part_number_normalized as key, p.id, p.price_cents, p.breaks
      from products p join unnest(${sqlTexts(allKeys)}) as k(key) on p.part_number_normalized = k.key`);
  const productOf = new Map(products.rows.map((p) => [p.key, p]));

  const wantedEntries = levels.flatMap((l) => {
    const product = productOf.get(l.key);
    const list = l.priceList ? listId.get(l.priceList.toLowerCase()) : undefined;
    return product && list ? [{ list, product: product.id }] : [];
  });
  const entries =
    wantedEntries.length === 0
      ? []
      : (
          await tx.execute<{
            price_list_id: string;
            product_id: string;
            unit_price_cents: number;
            breaks: PriceBreak[];
          }>(sql`
            select e.price_list_id, e.product_id, e.unit_price_cents, e.breaks
              from price_list_entries e
              join unnest(${sqlUuids(wantedEntries.map((w) => w.list))},
                          ${sqlUuids(wantedEntries.map((w) => w.product))}) as w(list, product)
                on e.price_list_id = w.list and e.product_id = w.product
             order by e.price_list_id, e.product_id
               for update of e`)
        ).rows;
  const entryOf = new Map(entries.map((e) => [`${e.price_list_id}/${e.product_id}`, e]));

  const cheaper = (breaks: PriceBreak[], cents: number) =>
    breaks.every((b) => b.unitPriceCents < cents);
  return levels.map((l): PriceLevelCheck => {
    const product = productOf.get(l.key);
    if (!product) return { line: l.line, outcome: "unknown-part" };
    if (!l.priceList) {
      if (!cheaper(product.breaks, l.cents)) return { line: l.line, outcome: "break-not-cheaper" };
      return {
        line: l.line,
        outcome: product.price_cents === l.cents ? "unchanged" : "updated",
        target: { kind: "list", productId: product.id },
        cents: l.cents,
      };
    }
    const list = listId.get(l.priceList.toLowerCase());
    if (!list) return { line: l.line, outcome: "unknown-list" };
    const entry = entryOf.get(`${list}/${product.id}`);
    if (entry && !cheaper(entry.breaks, l.cents)) {
      return { line: l.line, outcome: "break-not-cheaper" };
    }
    return {
      line: l.line,
      outcome: entry?.unit_price_cents === l.cents ? "unchanged" : "updated",
      target: { kind: "entry", priceListId: list, productId: product.id },
      cents: l.cents,
    };
  });
}

/**
 * Writes the prices, in the caller's transaction after `checkPriceLevels`: list prices in one
 * statement (the catalog's `setListPrices`), price-list entries in another (a new entry has no
 * breaks). The products' trigger tells every process's catalog cache, the entries' trigger every
 * company price cache (NOTIFY, delivered at commit); the caller clears its own process's after
 * commit.
 */
export async function writePriceLevels(
  tx: DbOrTx,
  changes: readonly { target: PriceTarget; cents: number }[],
): Promise<{ listPrices: number; entries: number }> {
  const list = changes.flatMap((c) =>
    c.target.kind === "list" ? [{ id: c.target.productId, cents: c.cents }] : [],
  );
  const entries = changes.flatMap((c) =>
    c.target.kind === "entry"
      ? [{ list: c.target.priceListId, product: c.target.productId, cents: c.cents }]
      : [],
  );
  // The list price is a column of the catalog's products: the catalog writes it.
  const listPrices = await setListPrices(
    tx,
    list.map((c) => ({ productId: c.id, cents: c.cents })),
  );
  // A statement per 20,000 entries, each bounded by the statement timeout.
  const written = await writeInStatements(
    tx,
    entries,
    20_000,
    (chunk) => sql`
      insert into price_list_entries (price_list_id, product_id, unit_price_cents)
      select * from unnest(${sqlUuids(chunk.map((e) => e.list))},
                           ${sqlUuids(chunk.map((e) => e.product))},
                           ${sqlInts(chunk.map((e) => e.cents))})
      on conflict (price_list_id, product_id) do update
        set unit_price_cents = excluded.unit_price_cents, updated_at = now()
        where price_list_entries.unit_price_cents is distinct from excluded.unit_price_cents`,
  );
  return { listPrices, entries: written };
}
