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

// Issue 30, hot row: one product's row locked (an admin's open transaction) while more customers
// order it than the pool has connections. At most ORDER_GATE_PER_PRODUCT of them hold a
// connection (waiting for the row); the rest queue in the server holding none, so orders of other
// products go through while every one of the hot product's is still waiting. Without the gate
// the hot orders take all ten connections and the others are refused 503 once the wait for a
// connection (DB_CONNECT_TIMEOUT_SECONDS) runs out.
const HOT_CLIENTS = 20;
const POOL_MAX = 10; // src/server/db/database.ts
const GATE = Number(process.env.HOT_ROW_TEST_GATE ?? 2);
const METRICS_TOKEN = "hot-row-test-metrics-token";

const external = testDatabaseForTests(shipsToTestAddress);
const dataDir = tempFolderForTests("store-hot-row-");
let server: ServerProcess | undefined;
afterAll(() => server?.stop());

test("a locked row queues its own orders in the server: other products' orders go through while all of them wait", async () => {
  server = await startServerProcess({
    DATABASE_URL: external.url,
    DATA_DIR: dataDir,
    ...ORDERING_AT_LOAD,
    LOG_LEVEL: "error",
    METRICS_TOKEN,
    ORDER_GATE_PER_PRODUCT: String(GATE),
    // What is measured is the gate; a saturated loop on a loaded machine is not shed here.
    EVENT_LOOP_LAG_MAX_MS: "0",
    // Long enough that nothing here ends by a timeout while the row is locked: the hot orders
    // wait (at the gate or for the row) until the lock goes, then are all placed.
    DB_LOCK_TIMEOUT_SECONDS: "120",
    DB_STATEMENT_TIMEOUT_SECONDS: "120",
    REQUEST_TIMEOUT_SECONDS: "120",
    // The gate's turn is bounded by the pool's connection wait: with the default 5 s, an order
    // reaching the gate once the row has been locked for 5 s ÷ 9 (18 ahead of it, 2 at a time)
    // would be refused busy, and on a loaded machine the 20 hot orders arrive over longer
    // (stop 60's CI: 18 of them refused).
    DB_CONNECT_TIMEOUT_SECONDS: "120",
  });
  const hot = await insertProduct(external.db, { availableQuantity: 1000, minimumOrder: 1 });
  const others = await Promise.all(
    Array.from({ length: 4 }, () =>
      insertProduct(external.db, { availableQuantity: 1000, minimumOrder: 1 }),
    ),
  );
  const customers = await signedUpHttpCustomers(HOT_CLIENTS + 5, "hot-row-gate", server.url);
  const order = async (c: HttpCustomer, productId: string) => {
    const res = await c.request(
      "POST",
      "/api/orders",
      orderToTestAddress(productId, 1, "6 Hot Row"),
    );
    const body = (await res.json()) as { error?: string };
    return { status: res.status, error: body.error };
  };
  const gauge = async () => {
    const res = await fetch(`${server!.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await res.text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
    return { inside: value("store_order_gate_inside"), waiting: value("store_order_gate_waiting") };
  };
  const lockWaiters = async () =>
    Number(
      (
        await external.pool.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock'`,
        )
      ).rows[0]!.n,
    );

  let hotSettled = 0;
  let hotOrders: Promise<Awaited<ReturnType<typeof order>>[]> | undefined;
  const lock = await lockProductRow(external.url, hot.id);
  try {
    hotOrders = Promise.all(
      customers.slice(0, HOT_CLIENTS).map((c) =>
        order(c, hot.id).finally(() => {
          hotSettled++;
        }),
      ),
    );
    // Every hot order has reached the server (inside its gate or queued at it), and those inside
    // all wait for the row on a connection of their own.
    let seen = { inside: NaN, waiting: NaN, lockWaiters: NaN };
    for (let polls = 0; ; polls++) {
      const g = await gauge();
      seen = { ...g, lockWaiters: await lockWaiters() };
      if (
        g.inside + g.waiting === HOT_CLIENTS &&
        seen.lockWaiters === Math.min(g.inside, POOL_MAX)
      ) {
        break;
      }
      expect(polls, `the hot orders never all arrived: ${JSON.stringify(seen)}`).toBeLessThan(2000);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toEqual({
      inside: Math.min(GATE, HOT_CLIENTS),
      waiting: HOT_CLIENTS - Math.min(GATE, HOT_CLIENTS),
      lockWaiters: Math.min(GATE, POOL_MAX),
    });

    // Five customers each order the four other products, one after another.
    const otherOutcomes = (
      await Promise.all(
        customers
          .slice(HOT_CLIENTS)
          .map(async (c) => [
            await order(c, others[0]!.id),
            await order(c, others[1]!.id),
            await order(c, others[2]!.id),
            await order(c, others[3]!.id),
          ]),
      )
    ).flat();
    expect(otherOutcomes).toEqual(Array.from({ length: 20 }, () => ({ status: 201 })));
    // ...all while every hot order still waited.
    expect(hotSettled).toBe(0);
    expect(await gauge()).toEqual({
      inside: Math.min(GATE, HOT_CLIENTS),
      waiting: HOT_CLIENTS - Math.min(GATE, HOT_CLIENTS),
    });
  } finally {
    await lock.release();
  }

  // The lock gone, the queue drains: every hot order is placed, once.
  const hotOutcomes = await hotOrders!;
  expect(hotOutcomes.map((o) => o.status)).toEqual(Array.from({ length: HOT_CLIENTS }, () => 201));
  const placed = await external.db
    .select()
    .from(orderItems)
    .where(eq(orderItems.productId, hot.id));
  const [row] = await external.db.select().from(products).where(eq(products.id, hot.id));
  expect(placed).toHaveLength(HOT_CLIENTS);
  expect(row?.availableQuantity).toBe(1000 - HOT_CLIENTS);
  expect(await gauge()).toEqual({ inside: 0, waiting: 0 });
}, 120_000);
