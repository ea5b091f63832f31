import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { insertProduct } from "../support/factories";
import { HttpCustomer } from "../support/http-customer";
import { countStatuses } from "../support/count-statuses";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// One product's row locked for 20 s while customers keep ordering it and others order other
// products (row-lock.test.ts locks one for 30 s with the default timeouts): in a file of its own,
// so that the two run side by side.

let external: TestDatabase;
let server: ServerProcess | undefined;
let dataDir: string;
beforeAll(async () => {
  external = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-row-lock-others-"));
});
afterAll(async () => {
  await server?.stop();
  await external.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("a product row locked for 20 s: orders of other products all go through, the hot one's are told busy", async () => {
  // Fault injection of 75cca6d, row 6: the clients waiting for one locked row held every pool
  // connection, and 25 of 225 orders for other products got 503. With the default
  // DB_LOCK_TIMEOUT_SECONDS (2), a waiter gives its connection back.
  server = await startServerProcess({
    DATABASE_URL: external.url,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "error",
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_UNVERIFIED_SHARE: "1",
    ORDERS_PER_MINUTE: "10000",
    HOLD_FREE_UNITS: "100000",
    // Every order of the other products must be answered 201: none is shed for the loop's lag.
    EVENT_LOOP_LAG_MAX_MS: "0",
    HOLD_MAX_VALUE: "1000000",
  });
  const hot = await insertProduct(external.db, { availableQuantity: 100_000, minimumOrder: 1 });
  const others = await Promise.all(
    Array.from({ length: 100 }, () =>
      insertProduct(external.db, { availableQuantity: 100_000, minimumOrder: 1 }),
    ),
  );
  const customers = Array.from(
    { length: 30 },
    (_, i) => new HttpCustomer(server!.url, `hot-row-${i}@example.com`),
  );
  for (const c of customers) await c.signUp();
  const order = async (c: HttpCustomer, productId: string) => {
    const started = Date.now();
    const res = await c.request("POST", "/api/orders", {
      productId,
      orderQty: 1,
      phonrNo: "5550100",
      Address: "6 Hot Row",
    });
    const body = (await res.json()) as { error?: string };
    return { status: res.status, error: body.error, ms: Date.now() - started };
  };

  const locker = new pg.Client({ connectionString: external.url });
  await locker.connect();
  const hotOutcomes: Awaited<ReturnType<typeof order>>[] = [];
  const otherOutcomes: Awaited<ReturnType<typeof order>>[] = [];
  try {
    await locker.query("begin");
    await locker.query("select id from products where id = $1 for update", [hot.id]);
    const until = Date.now() + 20_000;
    // 20 customers keep ordering the locked product, 10 keep ordering the others.
    const hotLoop = async (c: HttpCustomer) => {
      while (Date.now() < until) hotOutcomes.push(await order(c, hot.id));
    };
    const otherLoop = async (c: HttpCustomer, i: number) => {
      // A customer has one unpaid order of a product at a time: each orders each product once.
      for (let n = 0; n < others.length && Date.now() < until; n++) {
        otherOutcomes.push(await order(c, others[(i * 7 + n) % others.length]!.id));
      }
    };
    await Promise.all([
      ...customers.slice(0, 20).map(hotLoop),
      ...customers.slice(20).map(otherLoop),
    ]);
  } finally {
    await locker.query("rollback").catch(() => {});
    await locker.end();
  }
  const ms = otherOutcomes.map((o) => o.ms).sort((a, b) => a - b);
  console.log(
    `hot row locked 20 s: ${hotOutcomes.length} orders of it → ${countStatuses(hotOutcomes)}; ` +
      `${otherOutcomes.length} orders of other products → ${countStatuses(otherOutcomes)}, ` +
      `p50 ${ms[Math.floor(ms.length / 2)]} ms, p99 ${ms[Math.floor(ms.length * 0.99)]} ms`,
  );
  expect(otherOutcomes.length).toBeGreaterThan(20);
  expect(otherOutcomes.every((o) => o.status === 201)).toBe(true);
  expect(hotOutcomes.length).toBeGreaterThan(0);
  expect(hotOutcomes.every((o) => o.status === 503 && o.error === "busy")).toBe(true);
}, 120_000);
