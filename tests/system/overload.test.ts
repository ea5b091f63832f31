import { inArray, sql } from "drizzle-orm";
import { afterAll, expect, test } from "vitest";
import { orderItems } from "../../src/server/orders/tables";
import { products } from "../../src/server/catalog/tables";
import { orderToTestAddress, shipsToTestAddress } from "../support/destination";
import { insertProduct } from "../support/factories";
import { type HttpCustomer, signedUpHttpCustomers } from "../support/http-customer";
import {
  ORDERING_AT_LOAD,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process";
import { testDatabaseForTests } from "../support/test-database";
import { tempFolderForTests } from "../support/temp-folder";

// Issue 30 item 4: a burst far beyond what the database pool can serve is refused at once
// (503 "busy", Retry-After) instead of queueing until a timeout, nothing refused writes
// anything, and the next request after the burst goes through.
const QUEUE_MAX = 10;
const CUSTOMERS = 20;
const BURST = 400; // 40 × the bound, all at once
const CONNECT_TIMEOUT_MS = 5_000; // the default DB_CONNECT_TIMEOUT_SECONDS
const METRICS_TOKEN = "overload-test-metrics-token-0123456789";

const external = testDatabaseForTests(shipsToTestAddress);
const dataDir = tempFolderForTests("store-overload-");
let server: ServerProcess | undefined;
afterAll(() => server?.stop());

interface Outcome {
  status: number;
  retryAfter: string | null;
  error: string | undefined;
  /** From the burst's start to the whole answer. */
  ms: number;
}

test("a burst 40 × beyond DB_QUEUE_MAX: refusals at once, nothing refused written, the next order goes through", async () => {
  server = await startServerProcess({
    DATABASE_URL: external.url,
    DATA_DIR: dataDir,
    ...ORDERING_AT_LOAD,
    LOG_LEVEL: "warn",
    DB_QUEUE_MAX: String(QUEUE_MAX),
    METRICS_TOKEN,
  });
  // A customer has one unpaid order of a product at a time: each orders each product once.
  const made = await Promise.all(
    Array.from({ length: BURST / CUSTOMERS }, () =>
      insertProduct(external.db, { availableQuantity: 1_000, minimumOrder: 1 }),
    ),
  );
  const ids = made.map((p) => p.id);
  // Sign-ups (a password hash each) a few at a time, below the bound.
  const customers = await signedUpHttpCustomers(CUSTOMERS, "overload", server.url, 5);
  const order = (c: HttpCustomer, productId: string) =>
    c.request("POST", "/api/orders", orderToTestAddress(productId, 1, "1 Burst Road"));

  const started = Date.now();
  const liveness: number[] = [];
  const outcomes = await Promise.all([
    ...Array.from({ length: BURST }, async (_, i): Promise<Outcome> => {
      const res = await order(customers[i % CUSTOMERS]!, ids[Math.floor(i / CUSTOMERS)]!);
      const body = (await res.json()) as { error?: string };
      return {
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        error: body.error,
        ms: Date.now() - started,
      };
    }),
    // Health is never refused for overload.
    fetch(`${server.url}/api/health/live`).then((res) => {
      liveness.push(res.status);
      return undefined;
    }),
  ]).then((all) => all.filter((o): o is Outcome => o !== undefined));

  const accepted = outcomes.filter((o) => o.status === 201);
  const refused = outcomes.filter((o) => o.status === 503);
  const msOf = (os: Outcome[]) => os.map((o) => o.ms).sort((a, b) => a - b);
  const others = outcomes.filter((o) => o.status !== 201 && o.status !== 503);
  console.info(
    `burst of ${BURST}: ${accepted.length} placed (last ${Math.max(...msOf(accepted))} ms after the start), ` +
      `${refused.length} refused, others ${JSON.stringify(others)}`,
  );
  // Every request is either placed or refused as busy, with Retry-After.
  expect(others).toEqual([]);
  expect(accepted.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(r.retryAfter).toBe("1");
    expect(r.error).toBe("busy");
  }
  expect(liveness).toEqual([200]);

  // Refused at once rather than after queueing, by the server's own clock (the client's is
  // mostly its own sending on a busy machine): every refusal within the pool's connection
  // timeout (after which a queued request used to get its 503), and a refusal took the server
  // less time than an accepted order on average. (A product's gate refuses after the session
  // read, a few milliseconds in this burst; since issue 24 an order is two statements and takes
  // 40–60 ms here, so the tenth of an order's time this once asked for is no longer a margin.)
  const metrics = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }).then((res) => res.text());
  const orders503 = latency(metrics, "503");
  const orders201 = latency(metrics, "201");
  console.info(
    `server time: refusals mean ${((orders503.sum / orders503.count) * 1000).toFixed(2)} ms, ` +
      `accepted mean ${((orders201.sum / orders201.count) * 1000).toFixed(0)} ms`,
  );
  expect(orders503.count).toBe(refused.length);
  expect(orders201.count).toBe(accepted.length);
  expect(orders503.within(CONNECT_TIMEOUT_MS / 1000)).toBe(refused.length);
  expect(orders503.sum / orders503.count).toBeLessThan(orders201.sum / orders201.count);

  // Nothing refused wrote anything: one order per 201, and the stock moved by exactly as much.
  const [ordered] = await external.db
    .select({ n: sql<number>`count(*)::int`, qty: sql<number>`coalesce(sum(qty), 0)::int` })
    .from(orderItems)
    .where(inArray(orderItems.productId, ids));
  expect(ordered).toEqual({ n: accepted.length, qty: accepted.length });
  const [left] = await external.db
    .select({ qty: sql<number>`sum(${products.availableQuantity})::int` })
    .from(products)
    .where(inArray(products.id, ids));
  expect(left!.qty).toBe(ids.length * 1_000 - accepted.length);

  // The refusals are counted, and logged once a second at most (not once each), by whichever
  // refused them: the pool's shedding or a product's gate (its queue beyond DB_QUEUE_MAX).
  expect(metrics).toContain(`http_requests_shed_total ${refused.length}`);
  // Each of the two logs at most once a second, so together they may write two lines a second.
  const output = server.output();
  const gateLines = output.match(/overloaded: refusing orders of a product/g) ?? [];
  const poolLines = output.match(/overloaded: refusing API requests/g) ?? [];
  expect(gateLines.length + poolLines.length).toBeGreaterThan(0);
  const perSecond = Math.ceil((Date.now() - started) / 1000) + 1;
  expect(gateLines.length).toBeLessThanOrEqual(perSecond);
  expect(poolLines.length).toBeLessThanOrEqual(perSecond);

  // Recovery: the next order after the burst goes through at once.
  const extra = await insertProduct(external.db, { availableQuantity: 1_000, minimumOrder: 1 });
  const next = await order(customers[0]!, extra.id);
  expect(next.status).toBe(201);
}, 120_000);

// Issue 30 item 4, reads: 2,000 different searches sent at once were all answered, the last after
// 11 s. Reads that reach the database are shed like orders: a burst far beyond capacity is
// refused at once (bench/overload.ts measures 2,000; here 1,000 on the same server).
test("a burst of different searches far beyond capacity: answered or refused at once, none queued to a timeout", async () => {
  const SEARCHES = 1_000;
  const outcomes = await Promise.all(
    Array.from({ length: SEARCHES }, async (_, i) => {
      const res = await fetch(`${server!.url}/api/products?limit=24&q=burst+${i}`);
      const body = (await res.json()) as { error?: string };
      return { status: res.status, retryAfter: res.headers.get("retry-after"), error: body.error };
    }),
  );
  const answered = outcomes.filter((o) => o.status === 200);
  const refused = outcomes.filter((o) => o.status === 503);
  console.info(
    `search burst of ${SEARCHES}: ${answered.length} answered, ${refused.length} refused`,
  );
  expect(answered.length + refused.length).toBe(SEARCHES);
  expect(answered.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) expect([r.error, r.retryAfter]).toEqual(["busy", "1"]);

  const metrics = await fetch(`${server!.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }).then((res) => res.text());
  const searches503 = latency(metrics, "503", "/api/products");
  const searches200 = latency(metrics, "200", "/api/products");
  expect(searches503.count).toBe(refused.length);
  expect(searches503.within(CONNECT_TIMEOUT_MS / 1000)).toBe(refused.length);
  expect((searches503.sum / searches503.count) * 10).toBeLessThan(
    searches200.sum / searches200.count,
  );
  // And the next search goes through.
  expect((await fetch(`${server!.url}/api/products?limit=24&q=after`)).status).toBe(200);
}, 120_000);

/** The latency histogram of a route's answers with this status, from /metrics. */
function latency(metrics: string, status: string, route = "/api/orders") {
  const series = (kind: string) =>
    metrics
      .split("\n")
      .filter(
        (line) =>
          line.startsWith(`http_request_duration_seconds_${kind}{`) &&
          line.includes(`route="${route}"`) &&
          line.includes(`status_code="${status}"`),
      );
  const value = (line: string | undefined) => Number(line?.split(" ").at(-1) ?? NaN);
  return {
    count: value(series("count")[0]),
    sum: value(series("sum")[0]),
    /** How many were answered within `seconds` (a bucket's upper bound). */
    within: (seconds: number) => value(series("bucket").find((l) => l.includes(`le="${seconds}"`))),
  };
}
