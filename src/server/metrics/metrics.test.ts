import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { shipsToTestAddress, placeTestOrder } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { orders } from "../orders/tables";

const TOKEN = "metrics-token-for-the-test-0123456789";
let t: TestApp;
let closedSmtp: number;

beforeAll(async () => {
  // An SMTP address where nothing listens: every attempt to send fails, and is counted.
  closedSmtp = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
  t = await createTestApp(
    {
      METRICS_TOKEN: TOKEN,
      HOLD_SWEEP_SECONDS: "1",
      SMTP_URL: `smtp://127.0.0.1:${closedSmtp}`,
      MAIL_RETRY_DELAY_SECONDS: "3600",
    },
    { seed: shipsToTestAddress },
  );
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
};
/** The value of one series (name with its labels as printed), or undefined when absent. */
const value = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
/** Scrapes until `ok` holds (the sweeper and the mail worker run on their own clocks). */
async function until(ok: (text: string) => boolean): Promise<string> {
  for (;;) {
    const text = await scrape();
    if (ok(text)) return text;
    await new Promise((r) => setImmediate(r));
  }
}

test("without the token /metrics is refused: 401 with no or a wrong token, nothing collected", async () => {
  for (const authorization of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, TOKEN]) {
    const res = await t.app.inject({
      url: "/metrics",
      headers: authorization ? { authorization } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: "unauthorized" });
    expect(res.body).not.toContain("http_request_duration_seconds");
  }
});

test("a store without METRICS_TOKEN has no /metrics (404)", async () => {
  const bare = await createTestApp();
  try {
    const res = await bare.app.inject({
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
  } finally {
    await bare.close();
  }
});

test("request latency is by route pattern, never by raw URL", async () => {
  const product = await insertProduct(t.database.db, { name: "Metered pump" });
  for (let i = 0; i < 3; i++) {
    expect((await t.app.inject({ url: `/api/products/${product.id}` })).statusCode).toBe(200);
  }
  await t.app.inject({ url: "/no/such/page/at/all" });
  const text = await scrape();
  expect(
    value(
      text,
      'http_request_duration_seconds_count{method="GET",route="/api/products/:id",status_code="200"}',
    ),
  ).toBeGreaterThanOrEqual(3);
  expect(text).not.toContain(product.id);
  expect(text).not.toContain("/no/such/page");
  expect(text).toContain('route="(unmatched)"');
  expect(text).toContain("process_resident_memory_bytes");
});

test("pool gauges, catalog cache hits and misses", async () => {
  const list = () => t.app.inject({ url: "/api/products?limit=5&sort=name" });
  const hitsIn = (text: string) =>
    value(text, 'store_catalog_cache_lookups_total{result="hit"}') ?? 0;
  // Two repeats of a cached list are two hits. A catalog notification still arriving from the
  // earlier tests' products may empty the cache in between (then one is a miss): try again.
  let after = "";
  await expect
    .poll(
      async () => {
        await list();
        const hits = hitsIn(await scrape());
        await list();
        await list();
        after = await scrape();
        return hitsIn(after) - hits;
      },
      { timeout: 10_000 },
    )
    .toBe(2);
  expect(value(after, 'store_catalog_cache_lookups_total{result="miss"}')).toBeGreaterThan(0);
  for (const gauge of [
    "db_pool_connections_in_use",
    "db_pool_connections_idle",
    "db_pool_waiting_requests",
  ]) {
    expect(value(after, gauge)).toBeGreaterThanOrEqual(0);
  }
  expect(value(after, "db_pool_connections_idle")).toBeGreaterThan(0);
});

test("orders placed, holds expired, emails queued and failed attempts are counted", async () => {
  const start = await scrape();
  const placed = value(start, "store_orders_placed_total")!;
  const expired = value(start, "store_holds_expired_total")!;
  const queued = value(start, "store_emails_queued_total")!;

  // Sign-up queues the verification mail; the SMTP server is away, so its attempt fails.
  const customer = await signUp(t.app);
  const product = await insertProduct(t.database.db, { availableQuantity: 50, minimumOrder: 1 });
  const res = await placeTestOrder(t.app, customer, product.id, 2);
  expect(res.statusCode).toBe(201);
  // A refused order is not counted.
  const refused = await placeTestOrder(t.app, customer, product.id, 2);
  expect(refused.statusCode).toBe(409);

  const afterOrder = await scrape();
  expect(value(afterOrder, "store_orders_placed_total")).toBe(placed + 1);
  expect(value(afterOrder, "store_emails_queued_total")).toBeGreaterThan(queued);

  // Its hold runs out: the sweeper (every second here) cancels it.
  const { _id: id } = res.json<{ order: { _id: string } }>().order;
  await t.database.db
    .update(orders)
    .set({ holdExpiresAt: new Date(Date.now() - 1000) })
    .where(eq(orders.id, id));
  const swept = await until((text) => value(text, "store_holds_expired_total")! > expired);
  expect(value(swept, "store_holds_expired_total")).toBe(expired + 1);
  await until((text) => value(text, "store_email_attempts_failed_total")! > 0);
}, 60_000);
