import { eq } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { orderItems } from "../../src/server/orders/tables";
import { products } from "../../src/server/catalog/tables";
import { orderToTestAddress, shipsToTestAddress } from "../support/destination";
import { insertProduct } from "../support/factories";
import { type HttpCustomer, signedUpHttpCustomers } from "../support/http-customer";
import { lockProductRow } from "../support/row-lock";
import {
  ORDERING_AT_LOAD,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process";
import { testDatabaseForTests } from "../support/test-database";
import { tempFolderForTests } from "../support/temp-folder";

// A product row locked for 30 s (a stuck admin transaction, say) while customers order it, with
// the store's default timeouts (10 s statements, 5 s for a pool connection, 30 s a request):
// every request is answered within its timeout, health within 2 s throughout, and no order is
// placed whose client gave up — even when the lock goes away while the server still waits.
const LOCK_MS = 30_000;
const STATEMENT_TIMEOUT_MS = 10_000;

const external = testDatabaseForTests(shipsToTestAddress);
const dataDir = tempFolderForTests("store-row-lock-");
let server: ServerProcess | undefined;
afterAll(() => server?.stop());

interface Outcome {
  status: number | "gave up";
  ms: number;
}

test("a product row locked for 30 s: answers in time, health in 2 s, no order its client gave up on", async () => {
  server = await startServerProcess({
    DATABASE_URL: external.url,
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: "false",
    LOG_LEVEL: "error",
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_NEW_CUSTOMER_SHARE: "1",
    ORDERS_PER_MINUTE: "1000",
    HOLD_FREE_UNITS: "1000",
    // The statement timeout is what this test is about: locks are waited for as long.
    DB_LOCK_TIMEOUT_SECONDS: "60",
  });
  const product = await insertProduct(external.db, { availableQuantity: 1000, minimumOrder: 1 });
  const customers = await signedUpHttpCustomers(30, "row-lock", server.url);

  /** One order with a client that waits at most `patienceMs` for the answer. */
  const order = async (c: HttpCustomer, patienceMs: number): Promise<Outcome> => {
    const started = Date.now();
    try {
      const res = await c.request(
        "POST",
        "/api/orders",
        orderToTestAddress(product.id, 1, "30 Lock Street"),
        { signal: AbortSignal.timeout(patienceMs) },
      );
      await res.arrayBuffer();
      return { status: res.status, ms: Date.now() - started };
    } catch {
      return { status: "gave up", ms: Date.now() - started };
    }
  };
  const health: { url: string; status: number; ms: number }[] = [];
  const probe = async (url: string) => {
    const started = Date.now();
    const res = await fetch(`${server!.url}${url}`, { signal: AbortSignal.timeout(10_000) });
    health.push({ url, status: res.status, ms: Date.now() - started });
  };

  let impatient: Outcome[];
  let patient: Outcome[];
  let late: Outcome[];
  const lock = await lockProductRow(external.url, product.id);
  const lockedAt = Date.now();
  try {
    const at = (ms: number) =>
      new Promise((r) => setTimeout(r, Math.max(0, lockedAt + ms - Date.now())));
    // Health is asked twice a second for as long as the lock is held.
    const probing = (async () => {
      while (Date.now() - lockedAt < LOCK_MS) {
        await Promise.all([probe("/api/health/live"), probe("/api/health/ready")]);
        await at(Math.ceil((Date.now() - lockedAt + 1) / 500) * 500);
      }
    })();
    // 20 customers who give up after 3 s: more than the pool has connections.
    const wave1 = Promise.all(customers.slice(0, 20).map((c) => order(c, 3_000)));
    // 5 who wait as long as it takes, sent once the first wave's statements have timed out.
    await at(12_000);
    const wave2 = Promise.all(customers.slice(20, 25).map((c) => order(c, 60_000)));
    // 5 who give up 3 s after asking, 5 s before the lock goes: the server is still waiting
    // for the row when it is released, and must not place what nobody waits for any more.
    await at(LOCK_MS - 5_000);
    const wave3 = Promise.all(customers.slice(25, 30).map((c) => order(c, 3_000)));
    [impatient, patient, late] = await Promise.all([wave1, wave2, wave3]);
    await at(LOCK_MS);
    await probing;
  } finally {
    await lock.release();
  }

  // Whatever the server was still doing with the row has finished by now.
  for (;;) {
    const busy = await external.pool.query(
      `select 1 from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and state in ('active', 'idle in transaction')`,
    );
    if (busy.rowCount === 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const placed = await external.db
    .select()
    .from(orderItems)
    .where(eq(orderItems.productId, product.id));
  const [row] = await external.db.select().from(products).where(eq(products.id, product.id));
  const slowestHealth = Math.max(...health.map((h) => h.ms));
  const patientMs = patient.map((p) => p.ms);
  console.log(
    `row lock ${LOCK_MS / 1000} s: 20 clients giving up after 3 s → ${countStatuses(impatient)}; ` +
      `5 patient clients → ${countStatuses(patient)} in ${Math.min(...patientMs)}–${Math.max(...patientMs)} ms; ` +
      `5 giving up just before the lock went → ${countStatuses(late)}; ` +
      `${health.length} health probes, slowest ${slowestHealth} ms (${countStatuses(health)}); ` +
      `orders placed: ${placed.length}`,
  );

  // Gave up, or told busy before giving up: a placement whose turn at the product's gate would
  // not come within the wait for a connection is refused at once (on a loaded machine the first
  // wave arrives spread out, and its later ones see the queue ahead of them stuck).
  for (const o of [...impatient, ...late])
    expect(o.status === "gave up" || o.status === 503).toBe(true);
  // Told in time: 503 once the statement timeout (or the wait for a connection) ran out.
  for (const p of patient) {
    expect(p.status).toBe(503);
    expect(p.ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 2_000);
  }
  expect(health.length).toBeGreaterThan(40);
  for (const h of health) expect(h.ms, `${h.url} took ${h.ms} ms`).toBeLessThan(2_000);
  expect(health.filter((h) => h.url === "/api/health/live").every((h) => h.status === 200)).toBe(
    true,
  );
  // Nobody was told about an order, so there is none, and the stock is whole.
  expect(placed).toEqual([]);
  expect(row?.availableQuantity).toBe(1000);
  // With the lock gone the store takes orders at once.
  expect((await order(customers[0]!, 10_000)).status).toBe(201);
}, 120_000);

test("a product row locked for 20 s: orders of other products all go through, the hot one's are told busy", async () => {
  // Fault injection of 75cca6d, row 6: the clients waiting for one locked row held every pool
  // connection, and 25 of 225 orders for other products got 503. With the default
  // DB_LOCK_TIMEOUT_SECONDS (2), a waiter gives its connection back.
  await server?.stop();
  server = await startServerProcess({
    DATABASE_URL: external.url,
    DATA_DIR: dataDir,
    ...ORDERING_AT_LOAD,
    LOG_LEVEL: "error",
    // Every order of the other products must be answered 201: none is shed for the loop's lag.
    EVENT_LOOP_LAG_MAX_MS: "0",
  });
  const hot = await insertProduct(external.db, { availableQuantity: 100_000, minimumOrder: 1 });
  const others = await Promise.all(
    Array.from({ length: 100 }, () =>
      insertProduct(external.db, { availableQuantity: 100_000, minimumOrder: 1 }),
    ),
  );
  const customers = await signedUpHttpCustomers(30, "hot-row", server.url);
  const order = async (c: HttpCustomer, productId: string) => {
    const started = Date.now();
    const res = await c.request(
      "POST",
      "/api/orders",
      orderToTestAddress(productId, 1, "6 Hot Row"),
    );
    const body = (await res.json()) as { error?: string };
    const retryAfter = Number(res.headers.get("retry-after") ?? 0);
    return { status: res.status, error: body.error, ms: Date.now() - started, retryAfter };
  };

  const hotOutcomes: Awaited<ReturnType<typeof order>>[] = [];
  const otherOutcomes: Awaited<ReturnType<typeof order>>[] = [];
  const lock = await lockProductRow(external.url, hot.id);
  try {
    const until = Date.now() + 20_000;
    // 20 customers keep ordering the locked product, 10 keep ordering the others. The first
    // 20 ask again when a refusal's Retry-After says, as a browser's or an app's client does: a
    // loop that asks again at once sent 1,500–65,000 requests in 20 s and starved whatever ran
    // beside this test on the machine (the flood itself is overload.test.ts's subject).
    const hotLoop = async (c: HttpCustomer) => {
      while (Date.now() < until) {
        const outcome = await order(c, hot.id);
        hotOutcomes.push(outcome);
        const waitMs = Math.min(outcome.retryAfter * 1000, until - Date.now());
        if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
      }
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
    await lock.release();
  }
  const ms = otherOutcomes.map((o) => o.ms).sort((a, b) => a - b);
  console.log(
    `hot row locked 20 s: ${hotOutcomes.length} orders of it → ${countStatuses(hotOutcomes)}; ` +
      `${otherOutcomes.length} orders of other products → ${countStatuses(otherOutcomes)}, ` +
      `p50 ${ms[Math.floor(ms.length / 2)]} ms, p99 ${ms[Math.floor(ms.length * 0.99)]} ms`,
  );
  expect(otherOutcomes.length).toBeGreaterThan(20);
  expect(otherOutcomes.every((o) => o.status === 201)).toBe(true);
  expect(hotOutcomes.length).toBeGreaterThan(20);
  expect(hotOutcomes.every((o) => o.retryAfter === 1)).toBe(true);
  expect(hotOutcomes.every((o) => o.status === 503 && o.error === "busy")).toBe(true);
}, 120_000);

function countStatuses(outcomes: { status: number | string }[]): string {
  const by = new Map<string, number>();
  for (const o of outcomes) by.set(String(o.status), (by.get(String(o.status)) ?? 0) + 1);
  return [...by].map(([s, n]) => `${n} × ${s}`).join(", ");
}
