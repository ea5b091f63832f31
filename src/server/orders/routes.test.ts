import { beforeAll, describe, expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { availableQuantityOf, insertProduct } from "../../../tests/support/factories";
import { tradeMinimumsForRetail } from "../../../tests/support/trade";
import { storeForTests } from "../../../tests/support/store";

const { t, call, admin, customer, other } = storeForTests({
  admin: "orders-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: { name: "Casey" }, other: { name: "Olly" } },
});
beforeAll(async () => {
  // Their orders go to their address book's default (the typed Address and phone kept as sent).
  for (const who of [customer, other]) {
    const saved = await call(who, "POST", "/api/user/addresses", {
      ...TEST_SHIP_TO,
      isDefault: true,
    });
    expect(saved.statusCode).toBe(201);
  }
});

const place = (payload: object, who?: TestAccount) => call(who, "POST", "/api/orders", payload);
const stockOf = (id: string) => availableQuantityOf(t.database.db, id);
const orderInput = (productId: string, orderQty: number) => ({
  productId,
  orderQty,
  phonrNo: "5550100",
  Address: "1 Dock Road",
});

/**
 * A placement refused for its product: the status and error, and the message both on the answer
 * and on the product's own field (so a cart can show it on its line).
 */
function expectRefused(
  res: { statusCode: number; json: () => unknown },
  refusal: { status: number; error: string; productId: string; message: string },
) {
  expect(res.statusCode).toBe(refusal.status);
  expect(res.json()).toEqual({
    error: refusal.error,
    message: refusal.message,
    fields: { [refusal.productId]: refusal.message },
  });
}

describe("POST /api/orders", () => {
  test("a phone number typed with +, spaces, dashes or brackets is accepted and stored normalised", async () => {
    const p = await insertProduct(t.database.db);
    const res = await place(
      { ...orderInput(p.id, p.minimumOrder), phonrNo: "+44 (113) 496-0000" },
      customer,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().order.phonrNo).toBe("+441134960000");
  });

  test("anonymous: 401", async () => {
    const p = await insertProduct(t.database.db);
    expect((await place(orderInput(p.id, 5))).statusCode).toBe(401);
  });

  test("a customer orders: price and identity from the server, stock reserved", async () => {
    const p = await insertProduct(t.database.db, {
      priceCents: 2550,
      minimumOrder: 2,
      availableQuantity: 40,
    });
    const res = await place(
      {
        ...orderInput(p.id, 4),
        // The spec's client sends these; the server ignores them.
        orderEmail: "someone-else@example.com",
        productPrice: 0.01,
        productName: "Free stuff",
      },
      customer,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      order: {
        productId: p.id,
        productName: p.name,
        orderQty: 4,
        orderEmail: customer.email,
        productPrice: 25.5,
        total: 102,
        phonrNo: "5550100",
        Address: "1 Dock Road",
        paid: false,
        status: "unpaid",
        transactionId: null,
      },
    });
    expect(await stockOf(p.id)).toBe(36);
  });

  test("an admin cannot place an order: 403, nothing reserved", async () => {
    const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 9 });
    const res = await place(orderInput(p.id, 2), admin);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: "forbidden",
      message: "This is for customers; admins cannot do it",
    });
    expect(await stockOf(p.id)).toBe(9);
  });

  test("below the minimum order: 422 'please order at least {min}'", async () => {
    await tradeMinimumsForRetail(t.database.db);
    const p = await insertProduct(t.database.db, { minimumOrder: 10, availableQuantity: 40 });
    expectRefused(await place(orderInput(p.id, 9), customer), {
      status: 422,
      error: "rule_broken",
      productId: p.id,
      message: "please order at least 10",
    });
    expect(await stockOf(p.id)).toBe(40);
  });

  test("above the stock: 422 'please order less then {available}'", async () => {
    const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 12 });
    expectRefused(await place(orderInput(p.id, 13), customer), {
      status: 422,
      error: "rule_broken",
      productId: p.id,
      message: "please order less then 12",
    });
    expect(await stockOf(p.id)).toBe(12);
  });

  test("a second unpaid order for the same product: 409, another customer may still order", async () => {
    const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 50 });
    expect((await place(orderInput(p.id, 2), customer)).statusCode).toBe(201);
    expectRefused(await place(orderInput(p.id, 3), customer), {
      status: 409,
      error: "conflict",
      productId: p.id,
      message: "You have already ordered this product",
    });
    expect((await place(orderInput(p.id, 3), other)).statusCode).toBe(201);
    expect(await stockOf(p.id)).toBe(45);
  });

  test.each([
    [{ orderQty: 0 }, "orderQty"],
    [{ orderQty: 2.5 }, "orderQty"],
    [{ orderQty: "3" }, "orderQty"],
    [{ phonrNo: "" }, "phonrNo"],
    [{ phonrNo: "call me" }, "phonrNo"],
    [{ Address: " " }, "Address"],
    [{ productId: "nope" }, "productId"],
  ])("bad input %j: 400 naming %s", async (bad, field) => {
    const p = await insertProduct(t.database.db);
    const res = await place({ ...orderInput(p.id, 5), ...bad }, customer);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toContain(field);
  });

  test("an unknown product: 404", async () => {
    const res = await place(orderInput("00000000-0000-4000-8000-000000000000", 5), customer);
    expect(res.statusCode).toBe(404);
  });
});

describe("reading and deleting orders", () => {
  let orderId: string;
  let productId: string;
  beforeAll(async () => {
    const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 20 });
    productId = p.id;
    orderId = (await place(orderInput(p.id, 5), customer)).json().order._id;
  });

  test("GET /api/orders: anonymous 401; each customer sees only their own", async () => {
    expect((await call(null, "GET", "/api/orders")).statusCode).toBe(401);
    const mine = await call(customer, "GET", "/api/orders");
    expect(mine.json().map((o: { _id: string }) => o._id)).toContain(orderId);
    const theirs = await call(other, "GET", "/api/orders");
    expect(theirs.json().map((o: { _id: string }) => o._id)).not.toContain(orderId);
  });

  test("GET /api/orders?orderEmail=: own email 200, another's 403, admin any", async () => {
    const own = await call(
      customer,
      "GET",
      `/api/orders?orderEmail=${encodeURIComponent(customer.email)}`,
    );
    expect(own.statusCode).toBe(200);
    const foreign = await call(
      other,
      "GET",
      `/api/orders?orderEmail=${encodeURIComponent(customer.email)}`,
    );
    expect(foreign.statusCode).toBe(403);
    const byAdmin = await call(
      admin,
      "GET",
      `/api/orders?orderEmail=${encodeURIComponent(customer.email)}`,
    );
    expect(byAdmin.json().map((o: { _id: string }) => o._id)).toContain(orderId);
  });

  test("GET /api/orders/{id}: owner and admin see it, another customer gets 404", async () => {
    const url = `/api/orders/${orderId}`;
    expect((await call(null, "GET", url)).statusCode).toBe(401);
    expect((await call(customer, "GET", url)).statusCode).toBe(200);
    expect((await call(other, "GET", url)).statusCode).toBe(404);
    expect((await call(admin, "GET", url)).statusCode).toBe(200);
  });

  test("DELETE /api/orders/{id}: only the owner; the stock comes back", async () => {
    const url = `/api/orders/${orderId}`;
    expect(await stockOf(productId)).toBe(15);
    expect((await call(null, "DELETE", url)).statusCode).toBe(401);
    expect((await call(other, "DELETE", url)).statusCode).toBe(404);
    expect((await call(admin, "DELETE", url)).statusCode).toBe(404);
    const res = await call(customer, "DELETE", url);
    expect(res.statusCode).toBe(200);
    expect(await stockOf(productId)).toBe(20);
    expect((await call(customer, "GET", url)).statusCode).toBe(404);
    // Deleted, so the customer may order the product again.
    expect((await place(orderInput(productId, 1), customer)).statusCode).toBe(201);
  });
});
