import { afterAll, beforeAll, expect, test } from "vitest";
import { insertProduct } from "../tests/support/factories";
import { createTestDatabase, type TestDatabase } from "../tests/support/test-database";
import { explainSearch } from "./explain-search";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  for (let i = 0; i < 30; i++) {
    await insertProduct(database.db, { name: `Brake disc ${i}`, category: "Brakes" });
  }
  await insertProduct(database.db, { name: "Oil filter" });
});
afterAll(() => database.close());

const url = "/api/products?q=brake+discs&sort=price_asc";

test("a search's statements are replayed with their plans, under the plan settings it made", async () => {
  const statements = await explainSearch(database.url, url);
  const reads = statements.filter((s) => s.plan !== undefined);
  const settings = statements.filter((s) => s.plan === undefined);

  expect(settings.length).toBeGreaterThan(0);
  expect(settings.every((s) => s.sql.includes("set_config('enable_seqscan'"))).toBe(true);
  for (const read of reads) expect(read.plan).toMatch(/Execution Time: [\d.]+ ms/);
  // The page's reads come after the settings, and (sequential scans off) go through an index
  // even on a table this small; the total, counted after that transaction, does not.
  const afterSettings = statements.slice(statements.indexOf(settings[0]!) + 1);
  const pageReads = afterSettings.filter((s) => /from "products"/.test(s.sql) && s.plan);
  expect(pageReads.length).toBeGreaterThan(0);
  for (const read of pageReads.slice(0, -1)) expect(read.plan).not.toMatch(/Seq Scan on products/);
  expect(pageReads.at(-1)!.sql).toMatch(/count\(/);
  expect(pageReads.at(-1)!.plan).toMatch(/Seq Scan on products/);
});

test("without the plan settings, PostgreSQL's own choice is shown (a sequential scan of 31 rows)", async () => {
  const statements = await explainSearch(database.url, url, { planSettings: false });
  expect(statements.every((s) => s.plan !== undefined)).toBe(true);
  const productReads = statements.filter((s) => /from "products"/.test(s.sql));
  expect(productReads.some((s) => /Seq Scan on products/.test(s.plan!))).toBe(true);
});

test("a URL the list would refuse is refused here too, and nothing is run", async () => {
  await expect(explainSearch(database.url, "/api/products?sort=cheapest")).rejects.toThrow();
});
