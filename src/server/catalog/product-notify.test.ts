import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";

/**
 * What a product's change says on the catalog channel (migration 0041's `notify_product_changed`):
 * 'stock' when only its stock changed, so the caches keep everything that does not show stock;
 * 'catalog' for anything else, a change of stock and name together included.
 */
let database: TestDatabase;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  listener = new pg.Client({ connectionString: database.directUrl });
  await listener.connect();
  listener.on("notification", (n) => heard.push(n.payload ?? ""));
  await listener.query("listen catalog_changed");
});
afterAll(async () => {
  await listener.end();
  await database.close();
});

/**
 * What `change` said of products on the channel ('stock' or 'catalog'; the channel's other
 * payloads, such as 'prices', are other triggers'): what was heard before a marker sent after it.
 */
async function saidBy(change: () => Promise<unknown>): Promise<string[]> {
  const marker = `marker:${Math.random()}`;
  heard.length = 0;
  await change();
  await database.pool.query("select pg_notify('catalog_changed', $1)", [marker]);
  await expect.poll(() => heard.includes(marker)).toBe(true);
  return heard.filter((payload) => payload === "stock" || payload === "catalog");
}

test("a stock change says 'stock'; any other change, with the stock or without it, says 'catalog'", async () => {
  let p: Awaited<ReturnType<typeof insertProduct>> | undefined;
  expect(
    await saidBy(async () => {
      p = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 1 });
    }),
  ).toEqual(["catalog"]);
  const id = p!.id;
  const update = (set: string) =>
    saidBy(() => database.pool.query(`update products set ${set} where id = $1`, [id]));

  expect(await update("available_quantity = available_quantity - 1")).toEqual(["stock"]);
  expect(await update("available_quantity = available_quantity")).toEqual(["stock"]);
  expect(await update("name = name || ' (new)'")).toEqual(["catalog"]);
  // (A new word: a name's search document ignores punctuation, and the search document's own
  // update, made by a trigger after a name change, would then change nothing and say 'stock'.)
  expect(await update("name = name || ' rebuilt', available_quantity = 3")).toEqual(["catalog"]);
  expect(await update("price_cents = price_cents + 1")).toEqual(["catalog"]);
  // Set to what it already is: nothing but the (unchanged) stock differs.
  expect(await update("short_description = 'Fits most'")).toEqual(["catalog"]);
  expect(await update("short_description = 'Fits most'")).toEqual(["stock"]);
  expect(
    await saidBy(() => database.pool.query("delete from products where id = $1", [id])),
  ).toEqual(["catalog"]);
});
