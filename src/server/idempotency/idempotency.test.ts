import { and, eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import {
  checkoutToTestAddress,
  orderToTestAddress,
  shipsToTestAddress,
  TEST_SHIP_TO,
} from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { shippedOrderOfNewPart } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { idempotencyMessages } from "../../contract/idempotency";
import { orderMessages } from "../../contract/orders";
import { products } from "../catalog/tables";
import { orderItems, orders } from "../orders/tables";
import { returnRequests } from "../returns/tables";
import { user } from "../users/tables";
import { idempotencyKeys } from "./tables";

// The Idempotency-Key on the store's own routes (docs/idempotency.md): placing an order, the
// cart's checkout, opening a payment, asking for a return and accepting a quote. Each is sent
// again with its key and answered what it was answered the first time, done once. The rules
// one by one (waits, deadlines, failures, a stopped process): idempotent-routes.test.ts.

const HOUR = 3600_000;

const { t, admin, customer, other } = storeForTests({
  admin: "idem-admin@example.com",
  customers: { customer: {}, other: {} },
  extra: {
    seed: async (db) => {
      await shipsToTestAddress(db);
      // For the hourly sweep, which runs once as the store starts: one key past its 24
      // hours, one within them.
      await db.insert(user).values({
        id: "idem-sweep-user",
        name: "Sweep",
        email: "idem-sweep@example.com",
      });
      const row = {
        userId: "idem-sweep-user",
        route: "POST /api/orders",
        requestHash: "h",
        state: "done" as const,
        statusCode: 201,
        response: "{}",
      };
      await db.insert(idempotencyKeys).values([
        {
          ...row,
          key: "expired",
          createdAt: new Date(Date.now() - 25 * HOUR),
          expiresAt: new Date(Date.now() - HOUR),
        },
        {
          ...row,
          key: "kept",
          createdAt: new Date(Date.now() - HOUR),
          expiresAt: new Date(Date.now() + 23 * HOUR),
        },
      ]);
    },
  },
});

type Method = "GET" | "POST" | "PUT" | "PATCH";
const call = (who: TestAccount, method: Method, url: string, payload?: object, key?: string) =>
  t.app.inject({
    method,
    url,
    payload,
    headers: { cookie: who.cookie, ...(key === undefined ? {} : { "idempotency-key": key }) },
  });
const orderOf = (productId: string, orderQty = 2) => orderToTestAddress(productId, orderQty);
const place = (who: TestAccount, body: object, key?: string) =>
  call(who, "POST", "/api/orders", body, key);

const idOf = async (who: TestAccount) =>
  (
    await t.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, who.email.toLowerCase()))
  )[0]!.id;
/** The customer's orders with a line of a part (any status). */
const ordersOf = async (who: TestAccount, productId: string) =>
  t.database.db
    .selectDistinct({ id: orders.id })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(eq(orders.userId, await idOf(who)), eq(orderItems.productId, productId)));
const stockOf = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0]!.availableQuantity;
const keyCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(idempotencyKeys))[0]!.n;

let n = 0;
const freshKey = () => `order-attempt-${++n}-${Date.now()}`;

test("an order sent again with its key is answered the first answer (the same order), and one order is placed", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 50 });
  const key = freshKey();
  const first = await place(customer, orderOf(part.id), key);
  expect(first.statusCode, first.body).toBe(201);
  expect(first.headers["idempotent-replayed"]).toBeUndefined();
  const again = await place(customer, orderOf(part.id), key);
  expect(again.statusCode).toBe(201);
  expect(again.headers["idempotent-replayed"]).toBe("true");
  expect(again.headers["content-type"]).toMatch(/^application\/json/);
  expect(again.body).toBe(first.body);
  expect(again.json().order._id).toBe(first.json().order._id);
  expect(await ordersOf(customer, part.id)).toEqual([{ id: first.json().order._id }]);
  expect(await stockOf(part.id)).toBe(48);
  const [kept] = await t.database.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, await idOf(customer)), eq(idempotencyKeys.key, key)));
  expect(kept).toMatchObject({ route: "POST /api/orders", state: "done", statusCode: 201 });
  // Kept 24 hours.
  expect(kept!.expiresAt.getTime() - kept!.createdAt.getTime()).toBe(24 * HOUR);
});

test("the same key with another body, or on another route, is 422 and places nothing", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 50 });
  const key = freshKey();
  expect((await place(customer, orderOf(part.id), key)).statusCode).toBe(201);
  const otherBody = await place(customer, orderOf(part.id, 3), key);
  expect(otherBody.statusCode).toBe(422);
  expect(otherBody.json()).toEqual({
    error: "idempotency_key_reused",
    message: idempotencyMessages.reused,
  });
  const otherRoute = await call(customer, "POST", "/api/checkout", checkoutToTestAddress(1), key);
  expect(otherRoute.statusCode).toBe(422);
  expect(otherRoute.json().error).toBe("idempotency_key_reused");
  expect(await ordersOf(customer, part.id)).toHaveLength(1);
  expect(await stockOf(part.id)).toBe(48);
});

test("a bad key is 400 with what a key must be, and places nothing", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 50 });
  for (const key of ["", "k".repeat(256), "tab\tinside"]) {
    const res = await place(customer, orderOf(part.id), key);
    expect(res.statusCode, JSON.stringify(key)).toBe(400);
    expect(res.json()).toEqual({
      error: "invalid_idempotency_key",
      message: idempotencyMessages.invalid,
    });
  }
  expect(await ordersOf(customer, part.id)).toEqual([]);
});

test("two requests at once with one key place one order: both are answered with it, or the second is told to try again", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 50 });
  const key = freshKey();
  const both = await Promise.all([
    place(customer, orderOf(part.id), key),
    place(customer, orderOf(part.id), key),
  ]);
  const placed = await ordersOf(customer, part.id);
  expect(placed).toHaveLength(1);
  const orderId = placed[0]!.id;
  for (const res of both) {
    if (res.statusCode === 409) {
      expect(res.json()).toEqual({
        error: "idempotency_key_in_use",
        message: idempotencyMessages.inUse,
      });
    } else {
      expect(res.statusCode).toBe(201);
      expect(res.json().order._id).toBe(orderId);
    }
  }
  expect(both.filter((r) => r.statusCode === 201).length).toBeGreaterThanOrEqual(1);
  expect(both.filter((r) => r.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
  expect(await stockOf(part.id)).toBe(48);
});

test("another customer's same key is their own: each places their order", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 50 });
  const key = freshKey();
  const mine = await place(customer, orderOf(part.id), key);
  const theirs = await place(other, orderOf(part.id), key);
  expect(mine.statusCode).toBe(201);
  expect(theirs.statusCode).toBe(201);
  expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
  expect(theirs.json().order._id).not.toBe(mine.json().order._id);
  expect(await ordersOf(other, part.id)).toHaveLength(1);
  expect(await stockOf(part.id)).toBe(46);
});

test("without the header nothing changes: nothing is stored, and the duplicate rule answers the second order", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 50 });
  const before = await keyCount();
  const first = await place(customer, orderOf(part.id));
  expect(first.statusCode).toBe(201);
  expect(first.headers["idempotent-replayed"]).toBeUndefined();
  const second = await place(customer, orderOf(part.id));
  expect(second.statusCode).toBe(409);
  expect(second.json().message).toBe(orderMessages.duplicate);
  expect(await keyCount()).toBe(before);
  expect(await ordersOf(customer, part.id)).toHaveLength(1);
});

test("a refusal is kept with its key too: sent again, the same refusal, repeated", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 50 });
  expect((await place(customer, orderOf(part.id))).statusCode).toBe(201);
  const key = freshKey();
  const refused = await place(customer, orderOf(part.id), key);
  expect(refused.statusCode).toBe(409);
  const again = await place(customer, orderOf(part.id), key);
  expect(again.statusCode).toBe(409);
  expect(again.headers["idempotent-replayed"]).toBe("true");
  expect(again.body).toBe(refused.body);
});

/** A new customer with `qty` of a new part (`part` over a one-at-a-time part) in their cart. */
async function newCartOf(qty: number, part: Parameters<typeof insertProduct>[1]) {
  const buyer = await signUp(t.app);
  const p = await insertProduct(t.database.db, { minimumOrder: 1, ...part });
  expect((await call(buyer, "PUT", `/api/cart/items/${p.id}`, { qty })).statusCode).toBe(200);
  return { buyer, part: p };
}

test("the cart's checkout sent again with its key: the same order, placed once", async () => {
  const { buyer: me, part } = await newCartOf(3, { priceCents: 1500, availableQuantity: 20 });
  const total = (await call(me, "GET", "/api/cart")).json().subtotal as number;
  const body = checkoutToTestAddress(total);
  const key = freshKey();
  const first = await call(me, "POST", "/api/checkout", body, key);
  expect(first.statusCode, first.body).toBe(201);
  const again = await call(me, "POST", "/api/checkout", body, key);
  expect(again.statusCode).toBe(201);
  expect(again.headers["idempotent-replayed"]).toBe("true");
  expect(again.json().order._id).toBe(first.json().order._id);
  expect(await ordersOf(me, part.id)).toHaveLength(1);
  expect(await stockOf(part.id)).toBe(17);
});

test("opening a payment sent again with its key: the same payment secret, repeated", async () => {
  const part = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 20 });
  const placed = await place(customer, orderOf(part.id, 1));
  const orderId = placed.json().order._id as string;
  const key = freshKey();
  const first = await call(customer, "POST", "/api/create-payment-intent", { orderId }, key);
  expect(first.statusCode, first.body).toBe(200);
  const again = await call(customer, "POST", "/api/create-payment-intent", { orderId }, key);
  expect(again.statusCode).toBe(200);
  expect(again.headers["idempotent-replayed"]).toBe("true");
  expect(again.json().clientSecret).toBe(first.json().clientSecret);
  // Another customer's order under the same key: their own request, refused as before (404).
  expect(
    (await call(other, "POST", "/api/create-payment-intent", { orderId }, key)).statusCode,
  ).toBe(404);
});

test("a return asked for again with its key: the same return, asked once", async () => {
  const buyer = await signUp(t.app);
  const { orderId } = await shippedOrderOfNewPart(t, buyer, admin, 3, {
    priceCents: 2000,
    availableQuantity: 50,
  });
  const body = { lines: [{ line: 1, qty: 1 }], reason: "damaged" };
  const key = freshKey();
  const url = `/api/orders/${orderId}/returns`;
  const first = await call(buyer, "POST", url, body, key);
  expect(first.statusCode, first.body).toBe(201);
  const again = await call(buyer, "POST", url, body, key);
  expect(again.statusCode).toBe(201);
  expect(again.headers["idempotent-replayed"]).toBe("true");
  expect(again.json().id).toBe(first.json().id);
  const asked = await t.database.db
    .select({ id: returnRequests.id })
    .from(returnRequests)
    .where(eq(returnRequests.orderId, orderId));
  expect(asked).toEqual([{ id: first.json().id }]);
});

test("a quote accepted again with its key: the same order, placed once", async () => {
  const { buyer, part } = await newCartOf(4, { priceCents: 5000, availableQuantity: 30 });
  const asked = await call(buyer, "POST", "/api/quotes", { note: "Four please" });
  expect(asked.statusCode, asked.body).toBe(201);
  const quoteId = asked.json().id as string;
  const sent = await call(admin, "POST", `/api/quotes/${quoteId}/send`, {
    lines: [{ productId: part.id, unitPrice: 40 }],
    expiresAt: new Date(Date.now() + 7 * 24 * HOUR).toISOString(),
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const body = { phonrNo: "5550100", Address: "1 Fleet Yard", shipTo: TEST_SHIP_TO };
  const key = freshKey();
  const url = `/api/quotes/${quoteId}/accept`;
  const first = await call(buyer, "POST", url, body, key);
  expect(first.statusCode, first.body).toBe(201);
  const again = await call(buyer, "POST", url, body, key);
  expect(again.statusCode).toBe(201);
  expect(again.headers["idempotent-replayed"]).toBe("true");
  expect(again.json().order._id).toBe(first.json().order._id);
  expect(await ordersOf(buyer, part.id)).toHaveLength(1);
  expect(await stockOf(part.id)).toBe(26);
});

test("the hourly sweep deletes the keys past their 24 hours and keeps the others", async () => {
  const left = () =>
    t.database.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, "idem-sweep-user"));
  await expect.poll(left, { timeout: 20_000 }).toEqual([{ key: "kept" }]);
});

test("the OpenAPI document shows the header on the six routes, and only there", async () => {
  const doc = (await t.app.inject({ url: "/api/docs/json" })).json<{
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string; required?: boolean }[];
          responses: Record<string, { headers?: Record<string, unknown> }>;
        }
      >
    >;
  }>();
  const withKey = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) =>
        op.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key"),
      )
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  expect(withKey.sort()).toEqual([
    "POST /api/checkout",
    "POST /api/create-payment-intent",
    "POST /api/orders",
    "POST /api/orders/{id}/returns",
    "POST /api/quotes/{id}/accept",
    "POST /api/warranty-claims",
  ]);
  const placing = doc.paths["/api/orders"]!.post!;
  expect(placing.parameters?.find((p) => p.name === "Idempotency-Key")?.required).toBe(false);
  expect(Object.keys(placing.responses["201"]!.headers ?? {})).toEqual(["Idempotent-Replayed"]);
});
