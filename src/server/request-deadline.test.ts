import pg from "pg";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, expect, test } from "vitest";
import { insertProduct } from "../../tests/support/factories";
import { createTestApp, type TestApp } from "../../tests/support/test-app";
import { UNAVAILABLE_MESSAGE } from "./errors";

const TIMEOUT_MS = 500;
let t: TestApp;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { REQUEST_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000) },
    { onRoute: (r) => void routes.push(r) },
  );
});
afterAll(() => t.close());

test("every route has the request timeout but the public catalog reads, which bound their own", () => {
  const own = routes
    .filter((r) => r.handlerTimeout === undefined)
    .map((r) => `${r.method} ${r.url}`);
  expect(own.sort()).toEqual([
    "GET /api/products",
    "GET /api/products/:id",
    "HEAD /api/products",
    "HEAD /api/products/:id",
  ]);
  expect(routes.length).toBeGreaterThan(50);
  for (const r of routes)
    if (r.handlerTimeout !== undefined) expect(r.handlerTimeout).toBe(TIMEOUT_MS);
});

test("a public catalog read waiting on the database answers 503 at the request timeout", async () => {
  const product = await insertProduct(t.database.db, { name: "Locked part" });
  const locker = new pg.Client({ connectionString: t.database.url });
  await locker.connect();
  try {
    await locker.query("begin");
    await locker.query("lock table products in access exclusive mode");
    for (const url of [`/api/products/${product.id}`, "/api/products?q=locked"]) {
      const started = performance.now();
      const res = await t.app.inject({ method: "GET", url });
      const ms = performance.now() - started;
      expect(res.statusCode, url).toBe(503);
      expect(res.headers["retry-after"]).toBe("1");
      expect(res.json()).toEqual({ error: "unavailable", message: UNAVAILABLE_MESSAGE });
      // The request timeout, not the statement timeout (30 s), ended the wait.
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(ms).toBeLessThan(TIMEOUT_MS + 2_000);
    }
  } finally {
    await locker.query("rollback");
    await locker.end();
  }
  // Once the lock is gone the same read answers.
  const res = await t.app.inject({ method: "GET", url: `/api/products/${product.id}` });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ name: "Locked part" });
});
