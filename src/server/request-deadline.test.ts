import pg from "pg";
import type { InjectOptions, RouteOptions } from "fastify";
import { expect, test } from "vitest";
import { signUp } from "../../tests/support/accounts";
import { insertProduct } from "../../tests/support/factories";
import { createAnotherProcess } from "../../tests/support/test-app";
import { UNAVAILABLE_MESSAGE } from "./errors";
import { appForTests } from "../../tests/support/store";

const TIMEOUT_MS = 500;
const routes: RouteOptions[] = [];
const { t } = appForTests({
  env: { REQUEST_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000) },
  extra: { onRoute: (r) => void routes.push(r) },
});

/** Whether the route's first hook is the request timeout's (request-deadline.ts). */
const hasDeadline = (r: RouteOptions) =>
  Array.isArray(r.onRequest) && r.onRequest[0]?.name === "requestDeadline";

test("every route has the request timeout but the public catalog reads, which bound their own, and the catalog file uploads (a stall closes them)", () => {
  const own = routes.filter((r) => !hasDeadline(r)).map((r) => `${r.method} ${r.url}`);
  expect(own.sort()).toEqual([
    "GET /api/products",
    "GET /api/products/:id",
    "HEAD /api/products",
    "HEAD /api/products/:id",
    "POST /api/imports/aces",
    "POST /api/imports/pies",
  ]);
  expect(routes.length).toBeGreaterThan(50);
  // Fastify's own request timeout is not used (its AbortController costs every request).
  for (const r of routes) expect(r.handlerTimeout).toBeUndefined();
});

/** Runs `work` while `table` is locked by another connection (every statement on it waits). */
async function whileLocked(table: string, work: () => Promise<void>): Promise<void> {
  const locker = new pg.Client({ connectionString: t.database.url });
  await locker.connect();
  try {
    await locker.query("begin");
    await locker.query(`lock table ${table} in access exclusive mode`);
    await work();
  } finally {
    await locker.query("rollback");
    await locker.end();
  }
}

/** Sends the request and checks it was answered 503 by the request timeout, not before nor long after. */
async function expectTimedOut(request: InjectOptions, label: string) {
  const started = performance.now();
  const res = await t.app.inject(request);
  const ms = performance.now() - started;
  expect(res.statusCode, label).toBe(503);
  expect(res.headers["retry-after"]).toBe("1");
  expect(res.json()).toEqual({ error: "unavailable", message: UNAVAILABLE_MESSAGE });
  // The request timeout, not the statement timeout (30 s), ended the wait.
  expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  expect(ms).toBeLessThan(TIMEOUT_MS + 2_000);
}

test("any other request waiting on the database answers 503 at the request timeout, and is answered once the wait is gone", async () => {
  // Signed up through a process with the usual request timeout: a sign-up (its password hash)
  // can take longer than this app's half second on a slow machine.
  const other = await createAnotherProcess(t);
  const customer = await signUp(other.app).finally(() => other.close());
  const request = {
    method: "GET",
    url: "/api/orders",
    headers: { cookie: customer.cookie },
  } as const;
  await whileLocked("orders", () => expectTimedOut(request, "GET /api/orders"));
  expect((await t.app.inject(request)).statusCode).toBe(200);
});

test("a public catalog read waiting on the database answers 503 at the request timeout", async () => {
  const product = await insertProduct(t.database.db, { name: "Locked part" });
  await whileLocked("products", async () => {
    for (const url of [`/api/products/${product.id}`, "/api/products?q=locked"]) {
      await expectTimedOut({ method: "GET", url }, url);
    }
  });
  // Once the lock is gone the same read answers.
  const res = await t.app.inject({ method: "GET", url: `/api/products/${product.id}` });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ name: "Locked part" });
});
