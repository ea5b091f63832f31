import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { orderItems, orders, products } from "../../src/server/db/schema";
import { insertProduct } from "../support/factories";
import { HttpCustomer } from "../support/http-customer";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Two server processes on different ports over one PostgreSQL.
let database: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-two-"));
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: "shared-secret-of-both-processes-0123456789",
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_UNVERIFIED_SHARE: "1",
    AUTH_RATE_LIMIT_PER_EMAIL: "4",
    HOLD_SWEEP_SECONDS: "1",
    SEED_DEMO_DATA: "false",
    // About stock across processes, not capacity: no order is shed for a busy loop.
    EVENT_LOOP_LAG_MAX_MS: "0",
  };
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("a session created through one process is valid on the other", async () => {
  const c = new HttpCustomer(a.url, "roamer@example.com");
  await c.signUp();
  c.baseUrl = b.url;
  const me = await c.json<{ email: string }>("GET", "/api/user");
  expect(me.status).toBe(200);
  expect(me.body.email).toBe("roamer@example.com");
});

test("concurrent orders split across both processes never oversell", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 20, minimumOrder: 1 });
  const customers = Array.from(
    { length: 60 },
    (_, i) => new HttpCustomer(i % 2 ? a.url : b.url, `split-${i}@example.com`),
  );
  // Sign-ups (three rate-limit counters and a password hash each) a few at a time: the subject
  // is the orders, and 60 sign-ups at once are more than DB_QUEUE_MAX lets queue.
  for (let i = 0; i < customers.length; i += 5) {
    await Promise.all(customers.slice(i, i + 5).map((c) => c.signUp()));
  }
  const statuses = await Promise.all(
    customers.map(
      async (c) =>
        (
          await c.request("POST", "/api/orders", {
            productId: product.id,
            orderQty: 1,
            phonrNo: "5550100",
            Address: "2 Split Road",
          })
        ).status,
    ),
  );
  const placed = statuses.filter((s) => s === 201).length;
  console.log(
    `two processes: ${statuses.length} orders tried, ${placed} placed, ` +
      `${statuses.filter((s) => s === 422).length} refused for stock`,
  );
  expect(placed).toBe(20);
  expect(statuses.filter((s) => s !== 201 && s !== 422)).toEqual([]);
  const [p] = await database.db.select().from(products).where(eq(products.id, product.id));
  expect(p?.availableQuantity).toBe(0);
});

test("expired holds are cancelled once, not once per process", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 20, minimumOrder: 1 });
  const customers = Array.from(
    { length: 10 },
    (_, i) => new HttpCustomer(i % 2 ? a.url : b.url, `hold-${i}@example.com`),
  );
  await Promise.all(customers.map((c) => c.signUp()));
  for (const c of customers) {
    const res = await c.request("POST", "/api/orders", {
      productId: product.id,
      orderQty: 2,
      phonrNo: "5550100",
      Address: "3 Hold Road",
    });
    expect(res.status).toBe(201);
  }
  expect(
    (await database.db.select().from(products).where(eq(products.id, product.id)))[0]
      ?.availableQuantity,
  ).toBe(0);

  // Their hold runs out now; both processes sweep every second.
  await database.db
    .update(orders)
    .set({ holdExpiresAt: sql`now() - interval '1 minute'` })
    .where(inArray(orders.id, ordersOf(product.id)));
  const unfinished = async () =>
    (
      await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(and(inArray(orders.id, ordersOf(product.id)), ne(orders.status, "cancelled")))
    )[0]?.n;
  await expect.poll(unfinished, { timeout: 20_000 }).toBe(0);
  // Each order's stock came back exactly once.
  expect(
    (await database.db.select().from(products).where(eq(products.id, product.id)))[0]
      ?.availableQuantity,
  ).toBe(20);
  // A sweep logs after its transaction commits: wait for the lines to come through the pipes.
  const cancelledInLogs = () =>
    (`${a.output()}\n${b.output()}`.match(/cancelled (\d+) unpaid order/g) ?? []).reduce(
      (n, m) => n + Number(m.match(/\d+/)![0]),
      0,
    );
  await expect.poll(cancelledInLogs, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
  const cancelledByLogs = cancelledInLogs();
  console.log(`hold sweeper: 10 orders expired, cancelled ${cancelledByLogs} times in all`);
  expect(cancelledByLogs).toBe(10);
});

test("sign-in rate limits hold across both processes", async () => {
  const c = new HttpCustomer(a.url, "limited@example.com");
  await c.signUp();
  // AUTH_RATE_LIMIT_PER_EMAIL (4) guesses from this address go through at once, whichever
  // process answers; the fifth must wait (the delay is kept in PostgreSQL).
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) {
    c.baseUrl = i % 2 ? a.url : b.url;
    statuses.push(
      (
        await c.request("POST", "/api/auth/sign-in/email", {
          email: "limited@example.com",
          password: "wrong-password",
        })
      ).status,
    );
  }
  expect(statuses).toEqual([401, 401, 401, 401, 429]);
});

/** The orders with a line of this product. */
function ordersOf(productId: string) {
  return database.db
    .select({ id: orderItems.orderId })
    .from(orderItems)
    .where(eq(orderItems.productId, productId));
}
