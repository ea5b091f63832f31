import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { orders, products, user } from "../db/schema";
import { HttpError } from "../errors";
import { createOrderService } from "./service";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function customers(n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    email: `crowd-${i}-${randomUUID()}@example.com`,
    name: `Crowd ${i}`,
  }));
  await database.db.insert(user).values(rows);
  return rows;
}

const order = { orderQty: 1, phonrNo: "5550100", Address: "1 Dock Road" };

test("200 simultaneous orders for 50 in stock reserve exactly 50, and stock never goes below 0", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 50, minimumOrder: 1 });
  const service = createOrderService(database.db, {
    currency: "USD",
    holdMs: 3_600_000,
    pool: database.pool,
  });
  const crowd = await customers(200);

  const results = await Promise.allSettled(
    crowd.map((c) => service.place(c, { ...order, productId: product.id })),
  );
  const placed = results.filter((r) => r.status === "fulfilled").length;
  const refused = results.filter(
    (r) =>
      r.status === "rejected" &&
      r.reason instanceof HttpError &&
      r.reason.statusCode === 422 &&
      r.reason.message === "please order less then 0",
  ).length;
  console.log(`concurrency: ${results.length} orders tried, ${placed} placed, ${refused} refused`);

  expect(placed).toBe(50);
  expect(refused).toBe(150);
  const [p] = await database.db.select().from(products).where(eq(products.id, product.id));
  expect(p?.availableQuantity).toBe(0);
  const [reserved] = await database.db
    .select({ qty: sql<number>`coalesce(sum(${orders.orderQty}), 0)::int` })
    .from(orders)
    .where(eq(orders.productId, product.id));
  expect(reserved?.qty).toBe(50);
});

test("the same customer ordering one product twice at once gets one order and one 409", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 100, minimumOrder: 1 });
  const service = createOrderService(database.db, {
    currency: "USD",
    holdMs: 3_600_000,
    pool: database.pool,
  });
  const [buyer] = await customers(1);
  const results = await Promise.allSettled(
    Array.from({ length: 10 }, () => service.place(buyer!, { ...order, productId: product.id })),
  );
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  for (const r of results.filter((x) => x.status === "rejected")) {
    expect((r as PromiseRejectedResult).reason).toMatchObject({
      statusCode: 409,
      message: "You have already ordered this product",
    });
  }
  const [p] = await database.db.select().from(products).where(eq(products.id, product.id));
  expect(p?.availableQuantity).toBe(99);
});

test("unpaid orders past their hold are cancelled once and their stock comes back", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 30, minimumOrder: 1 });
  const expiring = createOrderService(database.db, {
    currency: "USD",
    holdMs: -1000,
    pool: database.pool,
  });
  const [a, b] = await customers(2);
  await expiring.place(a!, { ...order, productId: product.id, orderQty: 5 });
  await expiring.place(b!, { ...order, productId: product.id, orderQty: 7 });
  const holding = createOrderService(database.db, {
    currency: "USD",
    holdMs: 3_600_000,
    pool: database.pool,
  });
  const [c] = await customers(1);
  await holding.place(c!, { ...order, productId: product.id, orderQty: 3 });
  const stockAfterOrders = 30 - 15;
  expect(
    (await database.db.select().from(products).where(eq(products.id, product.id)))[0]
      ?.availableQuantity,
  ).toBe(stockAfterOrders);

  // Two sweepers at once (two server processes): each expired order is cancelled exactly once.
  const [first, second] = await Promise.all([holding.cancelExpired(), holding.cancelExpired()]);
  expect(first + second).toBeGreaterThanOrEqual(2);
  expect(await holding.cancelExpired()).toBe(0);

  const rows = await database.db.select().from(orders).where(eq(orders.productId, product.id));
  expect(rows.filter((r) => r.status === "cancelled")).toHaveLength(2);
  expect(rows.filter((r) => r.status === "unpaid")).toHaveLength(1);
  expect(
    (await database.db.select().from(products).where(eq(products.id, product.id)))[0]
      ?.availableQuantity,
  ).toBe(27);
});

test("a refused order is explained by the placing statement itself, with no second read", async () => {
  const soldOut = await insertProduct(database.db, { availableQuantity: 0, minimumOrder: 1 });
  const boxed = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 4 });
  // Any use of the Drizzle handle (the fallback read) fails the test.
  const noSecondRead = new Proxy(database.db, {
    get: () => {
      throw new Error("a second read was made");
    },
  });
  const service = createOrderService(noSecondRead, {
    currency: "USD",
    holdMs: 3_600_000,
    pool: database.pool,
  });
  const [buyer] = await customers(1);

  await expect(service.place(buyer!, { ...order, productId: soldOut.id })).rejects.toMatchObject({
    statusCode: 422,
    message: "please order less then 0",
  });
  await expect(
    service.place(buyer!, { ...order, productId: boxed.id, orderQty: 2 }),
  ).rejects.toMatchObject({ statusCode: 422, message: "please order at least 4" });
  await expect(
    service.place(buyer!, { ...order, productId: boxed.id, orderQty: 11 }),
  ).rejects.toMatchObject({ statusCode: 422, message: "please order less then 10" });
  await expect(service.place(buyer!, { ...order, productId: randomUUID() })).rejects.toMatchObject({
    statusCode: 404,
  });
  const placed = await service.place(buyer!, { ...order, productId: boxed.id, orderQty: 4 });
  expect(placed).toMatchObject({ orderQty: 4, total: placed.productPrice * 4 });
});
