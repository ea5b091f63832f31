import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { openDatabase } from "./database";
import { products } from "../catalog/tables";
import { reviews } from "../reviews/tables";
import { seedDemoData } from "../demo/seed";
import { demoProducts } from "../catalog/demo-products";

let dataDir: string;
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-db-test-"));
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

test("the embedded database is created, migrated and seeded on first start, and keeps what was written across a restart", async () => {
  const first = await openDatabase({ databaseUrl: undefined, dataDir }, quiet);
  try {
    expect(await seedDemoData(first.db)).toBe(true);
    const [p] = await first.db.select({ n: count() }).from(products);
    expect(p?.n).toBe(demoProducts.length);
    const [r] = await first.db.select({ n: count() }).from(reviews);
    expect(r?.n).toBeGreaterThan(0);
    await insertProduct(first.db, { name: "Written before the restart" });
  } finally {
    await first.close();
  }
  // The password file is private to the owner.
  const mode = (await fs.stat(path.join(dataDir, "postgres-password"))).mode & 0o777;
  expect(mode).toBe(0o600);

  const second = await openDatabase({ databaseUrl: undefined, dataDir }, quiet);
  try {
    expect(await seedDemoData(second.db)).toBe(false);
    const names = (await second.db.select({ name: products.name }).from(products)).map(
      (x) => x.name,
    );
    expect(names).toHaveLength(demoProducts.length + 1);
    expect(names).toContain("Written before the restart");
  } finally {
    await second.close();
  }
});
