import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { orderItems, orders } from "../../src/server/orders/tables";
import { products } from "../../src/server/catalog/tables";
import { orderToTestAddress, shipsToTestAddress, TEST_SHIP_TO } from "../support/destination";
import { insertProduct } from "../support/factories";
import { HttpCustomer, signedUpHttpCustomers } from "../support/http-customer";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { testDatabaseForTests } from "../support/test-database";
import { tempFolderForTests } from "../support/temp-folder";

// Two server processes on different ports over one PostgreSQL.
const database = testDatabaseForTests(shipsToTestAddress);
const dataDir = tempFolderForTests("store-two-");
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: "shared-secret-of-both-processes-0123456789",
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_NEW_CUSTOMER_SHARE: "1",
    AUTH_RATE_LIMIT_PER_EMAIL: "4",
    HOLD_SWEEP_SECONDS: "1",
    SEED_DEMO_DATA: "false",
    // About stock across processes, not capacity: no order is shed for a busy loop.
    EVENT_LOOP_LAG_MAX_MS: "0",
    // Nor for a product's queue: 30 orders of one part in each process wait their turn at its
    // gate however slow the machine is (the hot-row test does the same).
    DB_CONNECT_TIMEOUT_SECONDS: "120",
  };
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
}, 120_000);

afterAll(() => Promise.all([a?.stop(), b?.stop()]));

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
  // Sign-ups (three rate-limit counters and a password hash each) a few at a time: the subject
  // is the orders, and 60 sign-ups at once are more than DB_QUEUE_MAX lets queue.
  const customers = await signedUpHttpCustomers(60, "split", (i) => (i % 2 ? a.url : b.url), 5);
  const statuses = await Promise.all(
    customers.map(
      async (c) =>
        (await c.request("POST", "/api/orders", orderToTestAddress(product.id, 1, "2 Split Road")))
          .status,
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

test("orders decided from memory in either process: the duplicate rule across both, a payment, a new price", async () => {
  // Each process decides an order of a part it has read, by a customer it knows, from memory
  // (docs/decisions/011-checkout-workflow.md, "Decided from memory"); what the other process did
  // meanwhile must still be what the order is decided on.
  const parts = await Promise.all(
    Array.from({ length: 4 }, () =>
      insertProduct(database.db, { availableQuantity: 100, minimumOrder: 1, priceCents: 1000 }),
    ),
  );
  const customers = await signedUpHttpCustomers(4, "memory", a.url);
  // Their orders go to their address book's default: the orders the memory decides.
  for (const c of customers) {
    const saved = await c.request("POST", "/api/user/addresses", {
      ...TEST_SHIP_TO,
      isDefault: true,
    });
    expect(saved.status).toBe(201);
  }
  type Placed = { order: { _id: string; items: { unitPrice: number }[] }; message?: string };
  const orderVia = (c: HttpCustomer, server: ServerProcess, productId: string) => {
    c.baseUrl = server.url;
    return c.json<Placed>("POST", "/api/orders", {
      productId,
      orderQty: 1,
      phonrNo: "5550100",
      Address: "4 Memory Lane",
    });
  };
  // Both processes come to know every customer and the first two parts.
  const first: Placed[] = [];
  for (const c of customers) {
    const viaA = await orderVia(c, a, parts[0]!.id);
    expect(viaA.status).toBe(201);
    first.push(viaA.body);
    expect((await orderVia(c, b, parts[1]!.id)).status).toBe(201);
  }
  // Each part again through the process that did not place it: refused as a duplicate.
  for (const c of customers) {
    for (const [server, part] of [
      [b, parts[0]!],
      [a, parts[1]!],
    ] as const) {
      const again = await orderVia(c, server, part.id);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe("You have already ordered this product");
    }
  }
  // Paid through b: a may order that part again for the customer.
  const payer = customers[0]!;
  payer.baseUrl = b.url;
  expect(await payer.pay(first[0]!.order._id)).toBe(200);
  expect((await orderVia(payer, a, parts[0]!.id)).status).toBe(201);
  // Both processes read the last two parts, then their price changes.
  for (const [c, server, part] of [
    [customers[0]!, a, parts[2]!],
    [customers[0]!, b, parts[3]!],
    [customers[1]!, b, parts[2]!],
    [customers[1]!, a, parts[3]!],
  ] as const) {
    expect((await orderVia(c, server, part.id)).status).toBe(201);
  }
  await database.db
    .update(products)
    .set({ priceCents: 1500 })
    .where(inArray(products.id, [parts[2]!.id, parts[3]!.id]));
  for (const [c, server, part] of [
    [customers[2]!, a, parts[2]!],
    [customers[2]!, b, parts[3]!],
    [customers[3]!, b, parts[2]!],
    [customers[3]!, a, parts[3]!],
  ] as const) {
    const placed = await orderVia(c, server, part.id);
    expect(placed.status).toBe(201);
    expect(placed.body.order.items[0]!.unitPrice).toBe(15);
  }
  // One unpaid order per customer and part; every unit accounted for.
  const unpaid = await database.db.execute<{ n: number }>(sql`
    select count(*)::int as n from orders o join order_items i on i.order_id = o.id
     where o.status = 'unpaid' and i.product_id in ${parts.map((p) => p.id)}
     group by o.user_id, i.product_id having count(*) > 1`);
  expect(unpaid.rows).toEqual([]);
  for (const part of parts) {
    const [row] = await database.db.select().from(products).where(eq(products.id, part.id));
    const ordered = await database.db.execute<{ units: number }>(
      sql`select coalesce(sum(qty), 0)::int as units from order_items where product_id = ${part.id}`,
    );
    expect(row!.availableQuantity + ordered.rows[0]!.units).toBe(100);
  }
});

test("expired holds are cancelled once, not once per process", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 20, minimumOrder: 1 });
  const customers = await signedUpHttpCustomers(10, "hold", (i) => (i % 2 ? a.url : b.url), 10);
  for (const c of customers) {
    const res = await c.request(
      "POST",
      "/api/orders",
      orderToTestAddress(product.id, 2, "3 Hold Road"),
    );
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
