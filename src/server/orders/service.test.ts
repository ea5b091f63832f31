import { randomUUID } from "node:crypto";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { TEST_SHIP_TO, shipsToTestAddress } from "../../../tests/support/destination";
import { testCheckout } from "../../../tests/support/checkout-service";
import { insertProduct } from "../../../tests/support/factories";
import { tradeMinimumsForRetail } from "../../../tests/support/trade";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { orderItems, orders } from "./tables";
import { companyAddressInputSchema } from "../../contract/addresses";
import { products } from "../catalog/tables";
import { user } from "../users/tables";
import { HttpError } from "../errors";
import { databaseAnswer } from "../error-handler";
import { createInventory } from "../inventory/service";
import { createOrderService } from "./service";
import { createExpireHolds } from "../workflows/expire-holds";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await shipsToTestAddress(database.db);
});
afterAll(() => database.close());

async function customers(n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    email: `crowd-${i}-${randomUUID()}@example.com`,
    name: `Crowd ${i}`,
    emailVerified: true,
  }));
  await database.db.insert(user).values(rows);
  return rows;
}

/** The test address as the order routes hand it on (parsed: no company, no second line). */
const shipTo = companyAddressInputSchema.parse(TEST_SHIP_TO);
const order = { orderQty: 1, phonrNo: "5550100", Address: "1 Dock Road", shipTo };

/** The order service, with the checkout workflow's placements (`place`: the spec's order). */
function orderService(holdMs = 3_600_000) {
  const inventory = createInventory(database.db);
  // The new customers' cap off: these tests are about stock under concurrency, not that cap.
  const checkout = testCheckout(database.db, { inventory, holdMs, uncapped: true });
  return {
    ...createOrderService(database.db, inventory, { currency: "USD" }),
    cancelExpired: createExpireHolds(inventory),
    place: checkout.placeOne,
    placeLines: checkout.placeLines,
  };
}

/**
 * Answered 503 "busy, try again" by the API, nothing of that order written: waited for a row past
 * DB_LOCK_TIMEOUT_SECONDS (PostgreSQL's lock_not_available), or for a pooled connection past
 * DB_CONNECT_TIMEOUT_SECONDS (200 placements at once on a pool of 10, on a slow machine).
 */
function lockTimeout(e: unknown): boolean {
  return databaseAnswer(e)?.statusCode === 503;
}

/** What the product's unpaid and paid order lines hold. */
async function heldOf(productId: string): Promise<number> {
  const [row] = await database.db
    .select({ qty: sql<number>`coalesce(sum(${orderItems.qty}), 0)::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, productId), ne(orders.status, "cancelled")));
  return row?.qty ?? 0;
}

test("200 simultaneous orders for 50 in stock reserve exactly 50, and stock never goes below 0", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 50, minimumOrder: 1 });
  const service = orderService();
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
  // One that waited for the product's row past DB_LOCK_TIMEOUT_SECONDS (2 s: 200 orders queue
  // on one row, and a busy machine is slow) fails with lock_not_available (the API answers 503
  // "busy, try again"), and nothing of it is written.
  const busy = results.filter((r) => r.status === "rejected" && lockTimeout(r.reason)).length;
  console.log(
    `concurrency: ${results.length} orders tried, ${placed} placed, ${refused} refused, ${busy} busy`,
  );

  expect(placed).toBe(50);
  expect(refused + busy).toBe(150);
  const [p] = await database.db.select().from(products).where(eq(products.id, product.id));
  expect(p?.availableQuantity).toBe(0);
  expect(await heldOf(product.id)).toBe(50);
});

test("the same customer ordering one product twice at once gets one order and one 409", async () => {
  const product = await insertProduct(database.db, { availableQuantity: 100, minimumOrder: 1 });
  const service = orderService();
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
  const expiring = orderService(-1000);
  const [a, b] = await customers(2);
  await expiring.place(a!, { ...order, productId: product.id, orderQty: 5 });
  await expiring.place(b!, { ...order, productId: product.id, orderQty: 7 });
  const holding = orderService();
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

  const rows = await database.db
    .select({ status: orders.status })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(eq(orderItems.productId, product.id));
  expect(rows.filter((r) => r.status === "cancelled")).toHaveLength(2);
  expect(rows.filter((r) => r.status === "unpaid")).toHaveLength(1);
  expect(
    (await database.db.select().from(products).where(eq(products.id, product.id)))[0]
      ?.availableQuantity,
  ).toBe(27);
});

test("a refused order says why with the spec's messages, and nothing is written", async () => {
  await tradeMinimumsForRetail(database.db);
  const soldOut = await insertProduct(database.db, { availableQuantity: 0, minimumOrder: 1 });
  const boxed = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 4 });
  const service = orderService();
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
  expect(await service.listForUser(buyer!.id)).toEqual([]);
  const placed = await service.place(buyer!, { ...order, productId: boxed.id, orderQty: 4 });
  expect(placed).toMatchObject({ orderQty: 4, total: placed.productPrice * 4 });
  expect(placed.items).toEqual([
    {
      productId: boxed.id,
      productName: boxed.name,
      partNumber: boxed.partNumber,
      unitPrice: placed.productPrice,
      qty: 4,
      lineTotal: placed.productPrice * 4,
      // No tax rates: no tax.
      tax: 0,
      // No vehicle chosen (docs/vehicle-on-line.md).
      vehicle: null,
      coreDeposit: 0,
    },
  ]);
});

const delivery = { phone: "5550100", address: "1 Dock Road", poReference: "PO-17" };
const destination = { shipTo };

type OrderService = ReturnType<typeof orderService>;

/** A customer's lines placed as one order with the test delivery details, to the test address. */
const placeLines = (
  service: OrderService,
  customer: Parameters<OrderService["placeLines"]>[0],
  lines: Parameters<OrderService["placeLines"]>[1],
) => service.placeLines(customer, lines, delivery, undefined, destination);

test("an order of several lines reserves all of them or none, and names the line refused", async () => {
  const pads = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 2 });
  const filter = await insertProduct(database.db, { availableQuantity: 3, minimumOrder: 1 });
  const service = orderService();
  const [garage] = await customers(1);

  const refused = placeLines(service, garage!, [
    { productId: pads.id, qty: 4 },
    { productId: filter.id, qty: 5 },
  ]);
  await expect(refused).rejects.toMatchObject({
    statusCode: 422,
    message: "please order less then 3",
    fields: { [filter.id]: "please order less then 3" },
  });
  expect(await heldOf(pads.id)).toBe(0);
  const [padsRow] = await database.db.select().from(products).where(eq(products.id, pads.id));
  expect(padsRow?.availableQuantity).toBe(10);

  const placed = await placeLines(service, garage!, [
    { productId: pads.id, qty: 4 },
    { productId: filter.id, qty: 3 },
  ]);
  expect(placed.items.map((i) => [i.productId, i.qty])).toEqual([
    [pads.id, 4],
    [filter.id, 3],
  ]);
  // The spec's fields describe the first line; the total covers every line.
  expect(placed).toMatchObject({ productId: pads.id, orderQty: 4, poReference: "PO-17" });
  expect(placed.total).toBeCloseTo(placed.items[0]!.lineTotal + placed.items[1]!.lineTotal, 2);

  // Deleting it gives every line back.
  await service.deleteUnpaid(placed._id, garage!.id);
  expect(await heldOf(pads.id)).toBe(0);
  const rows = await database.db
    .select({ n: products.availableQuantity })
    .from(products)
    .where(inArray(products.id, [pads.id, filter.id]));
  expect(rows.map((r) => r.n).sort((x, y) => x - y)).toEqual([3, 10]);
});

test("200 simultaneous 3-line checkouts over little stock: never oversold, all or nothing", async () => {
  const initial = [40, 25, 60];
  const parts = await Promise.all(
    initial.map((n) => insertProduct(database.db, { availableQuantity: n, minimumOrder: 1 })),
  );
  const service = orderService();
  const crowd = await customers(200);
  // Lines listed in different orders per customer: the inventory locks rows in one order.
  const results = await Promise.allSettled(
    crowd.map((c, i) => {
      const lines = parts.map((p, k) => ({ productId: p.id, qty: 1 + ((i + k) % 3) }));
      return placeLines(service, c, i % 2 === 0 ? lines : lines.reverse());
    }),
  );
  const placed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  for (const r of results) {
    if (r.status === "rejected" && !lockTimeout(r.reason)) {
      expect(r.reason).toMatchObject({ statusCode: 422 });
    }
  }
  console.log(`checkouts: ${results.length} tried, ${placed.length} placed`);
  expect(placed.length).toBeGreaterThan(0);
  for (const o of placed) expect(o.items).toHaveLength(3);
  for (const [k, p] of parts.entries()) {
    const [row] = await database.db.select().from(products).where(eq(products.id, p.id));
    expect(row!.availableQuantity).toBeGreaterThanOrEqual(0);
    // stock + held (unpaid) + sold (none paid here) = initial
    expect(row!.availableQuantity + (await heldOf(p.id))).toBe(initial[k]);
  }
});
