import { beforeAll, expect, test } from "vitest";
import type pg from "pg";
import { insertProduct } from "../../tests/support/factories";
import { spyOnCachedAnswers } from "../../tests/support/read-cache";
import { appForTests } from "../../tests/support/store";

// Issue 30: shedding overload (overload.ts) refuses what would queue for the database, not the
// catalog reads the read cache answers from memory. The pool is held full here (every connection
// checked out and a query waiting), with DB_QUEUE_MAX 0.
const { t } = appForTests({ env: { DB_QUEUE_MAX: "0" } });
let productId: string;
const answered = spyOnCachedAnswers();

beforeAll(async () => {
  productId = (await insertProduct(t.database.db, { name: "Shed-proof part" })).id;
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });

/** Asks until the answer comes from the cache's hook (the set-up's NOTIFYs may clear it first). */
async function warm(url: string) {
  for (;;) {
    expect((await get(url)).statusCode).toBe(200);
    if (answered.mock.results.at(-1)?.value !== undefined) return;
  }
}

test("with the pool's queue past DB_QUEUE_MAX, cached catalog reads are answered; reads that need the database are refused", async () => {
  const list = "/api/products?limit=2&sort=name";
  const product = `/api/products/${productId}`;
  await warm(list);
  await warm(product);

  const { pool } = t.database;
  const held: pg.PoolClient[] = [];
  for (let i = 0; i < pool.options.max!; i++) held.push(await pool.connect());
  const queued = pool.query("select 1");
  try {
    expect(pool.waitingCount).toBeGreaterThan(0);
    const cachedList = await get(list);
    expect(cachedList.statusCode).toBe(200);
    expect(cachedList.json()).toHaveLength(1);
    expect((await get(product)).statusCode).toBe(200);

    // Not in the cache, or needing the session (a list with the customer's own prices): refused.
    for (const [url, headers] of [
      ["/api/products?limit=3", {}],
      [list, { cookie: "better-auth.session_token=someone" }],
      ["/api/cart", {}],
    ] as const) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBe(503);
      expect(res.json().error).toBe("busy");
    }
  } finally {
    for (const c of held) c.release();
    await queued;
  }
  // The queue gone, everything is answered again.
  expect((await get("/api/products?limit=3")).statusCode).toBe(200);
});
