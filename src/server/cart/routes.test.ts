import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { tradeMinimumsForRetail } from "../../../tests/support/trade";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { MAX_CART_LINES } from "../../contract/cart";
import { orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { user } from "../users/tables";

const { t, call, admin } = storeForTests({
  admin: "cart-admin@example.com",
  shipsToTestAddress: true,
});

const put = (who: TestAccount, productId: string, qty: number) =>
  call(who, "PUT", `/api/cart/items/${productId}`, { qty });
const delivery = { phonrNo: "5550100", Address: "14 Garage Lane, Leeds" };
const checkout = (who: TestAccount, expectedTotal: number, extra: object = {}) =>
  call(who, "POST", "/api/checkout", {
    ...delivery,
    shipTo: TEST_SHIP_TO,
    expectedTotal,
    ...extra,
  });
const stockOf = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0]?.availableQuantity;

describe("the cart", () => {
  test("lines are priced from the catalog, with the spec's rules shown on the line", async () => {
    await tradeMinimumsForRetail(t.database.db);
    const me = await signUp(t.app);
    const pads = await insertProduct(t.database.db, {
      priceCents: 2500,
      minimumOrder: 2,
      availableQuantity: 30,
    });
    const wipers = await insertProduct(t.database.db, { minimumOrder: 4, availableQuantity: 5 });

    expect((await put(me, pads.id, 3)).statusCode).toBe(200);
    const res = await put(me, wipers.id, 2);
    const cart = res.json();
    expect(cart.lines.map((l: { productId: string }) => l.productId)).toEqual([pads.id, wipers.id]);
    expect(cart.lines[0]).toMatchObject({ qty: 3, unitPrice: 25, lineTotal: 75, problem: null });
    expect(cart.lines[1].problem).toBe("please order at least 4");
    expect(cart.canCheckout).toBe(false);

    const tooMany = (await put(me, wipers.id, 6)).json();
    expect(tooMany.lines[1].problem).toBe("please order less then 5");
    const fixed = (await put(me, wipers.id, 4)).json();
    expect(fixed).toMatchObject({ count: 7, canCheckout: true, currency: "USD" });
    expect(fixed.subtotal).toBeCloseTo(75 + (wipers.priceCents * 4) / 100, 2);

    const removed = (await call(me, "DELETE", `/api/cart/items/${wipers.id}`)).json();
    expect(removed.lines).toHaveLength(1);
  });

  test("a repriced, sold-out or deleted part says so, and a deleted one blocks checkout", async () => {
    const me = await signUp(t.app);
    const a = await insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1 });
    const b = await insertProduct(t.database.db, { minimumOrder: 1 });
    const c = await insertProduct(t.database.db, { minimumOrder: 1 });
    for (const p of [a, b, c]) await put(me, p.id, 1);

    await t.database.db.update(products).set({ priceCents: 1250 }).where(eq(products.id, a.id));
    await t.database.db.update(products).set({ availableQuantity: 0 }).where(eq(products.id, b.id));
    await t.database.db.delete(products).where(eq(products.id, c.id));

    const cart = (await call(me, "GET", "/api/cart")).json();
    expect(cart.lines[0]).toMatchObject({
      unitPrice: 12.5,
      notice: "The price changed from $10.00 to $12.50",
      problem: null,
    });
    expect(cart.lines[1].problem).toBe("Out of stock; remove it to check out");
    expect(cart.lines[2]).toMatchObject({
      productName: c.name,
      problem: "This part is no longer sold; remove it to check out",
    });
    expect(cart.canCheckout).toBe(false);

    await call(me, "DELETE", `/api/cart/items/${b.id}`);
    const refused = await checkout(me, 12.5);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: "This part is no longer sold; remove it to check out",
      fields: { [c.id]: "This part is no longer sold; remove it to check out" },
    });
  });

  test("a visitor's cart is priced without signing in, and merged at sign-in", async () => {
    const a = await insertProduct(t.database.db, { minimumOrder: 1 });
    const b = await insertProduct(t.database.db, { minimumOrder: 1 });
    const items = [
      { productId: a.id, qty: 2 },
      { productId: b.id, qty: 3 },
      { productId: randomUUID(), qty: 1 },
    ];
    const quoted = await call(undefined, "POST", "/api/cart/quote", { items });
    expect(quoted.statusCode).toBe(200);
    expect(quoted.json().lines[2].problem).toBe(
      "This part is no longer sold; remove it to check out",
    );

    const me = await signUp(t.app);
    await put(me, a.id, 5);
    const merged = (await call(me, "POST", "/api/cart/merge", { items })).json();
    // The larger quantity wins; a part that does not exist is left out; the order is kept.
    expect(merged.lines.map((l: { qty: number }) => l.qty)).toEqual([5, 3]);
    const other = await signUp(t.app);
    const fresh = (await call(other, "POST", "/api/cart/merge", { items })).json();
    expect(fresh.lines.map((l: { productId: string }) => l.productId)).toEqual([a.id, b.id]);
  });

  test("quantities, ids and sizes are checked by the server", async () => {
    const me = await signUp(t.app);
    const p = await insertProduct(t.database.db);
    expect((await put(me, p.id, 0)).statusCode).toBe(400);
    expect((await put(me, p.id, 1.5)).statusCode).toBe(400);
    expect((await call(me, "PUT", `/api/cart/items/not-a-uuid`, { qty: 1 })).statusCode).toBe(400);
    expect((await put(me, randomUUID(), 1)).statusCode).toBe(404);
    const tooBig = Array.from({ length: MAX_CART_LINES + 1 }, () => ({
      productId: randomUUID(),
      qty: 1,
    }));
    expect((await call(undefined, "POST", "/api/cart/quote", { items: tooBig })).statusCode).toBe(
      400,
    );
  });

  test("a cart holds at most 100 parts", async () => {
    const me = await signUp(t.app);
    const parts = await Promise.all(
      Array.from({ length: MAX_CART_LINES + 1 }, () => insertProduct(t.database.db)),
    );
    const merged = await call(me, "POST", "/api/cart/merge", {
      items: parts.slice(0, MAX_CART_LINES).map((p) => ({ productId: p.id, qty: 2 })),
    });
    expect(merged.json().lines).toHaveLength(MAX_CART_LINES);
    const refused = await put(me, parts[MAX_CART_LINES]!.id, 2);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe("A cart holds at most 100 different parts");
    // A hundred lines check out as one order.
    const cart = (await call(me, "GET", "/api/cart")).json();
    const placed = await checkout(me, cart.subtotal);
    expect(placed.statusCode).toBe(201);
    expect(placed.json().order.items).toHaveLength(MAX_CART_LINES);
  });

  test("admins have no cart", async () => {
    const p = await insertProduct(t.database.db);
    expect((await call(admin, "GET", "/api/cart")).statusCode).toBe(403);
    expect((await put(admin, p.id, 2)).statusCode).toBe(403);
    expect((await checkout(admin, 1)).statusCode).toBe(403);
  });
});

describe("checkout", () => {
  test("the whole cart becomes one order at the shown total; the cart empties; the profile is saved when asked", async () => {
    const me = await signUp(t.app);
    const pads = await insertProduct(t.database.db, { priceCents: 4000, availableQuantity: 20 });
    const filter = await insertProduct(t.database.db, { priceCents: 899, availableQuantity: 50 });
    await put(me, pads.id, 2);
    await put(me, filter.id, 6);
    const total = (await call(me, "GET", "/api/cart")).json().subtotal;
    expect(total).toBeCloseTo(80 + 53.94, 2);

    // It goes to their address book's default; the delivery details typed are the order's.
    const home = await call(me, "POST", "/api/user/addresses", TEST_SHIP_TO);
    expect(home.statusCode, home.body).toBe(201);
    const res = await call(me, "POST", "/api/checkout", {
      ...delivery,
      expectedTotal: total,
      poReference: "PO-4471",
      saveToProfile: true,
    });
    expect(res.statusCode).toBe(201);
    const order = res.json().order;
    expect(order).toMatchObject({
      productId: pads.id,
      orderQty: 2,
      Address: delivery.Address,
      phonrNo: delivery.phonrNo,
      poReference: "PO-4471",
      status: "unpaid",
      total,
    });
    expect(order.items.map((i: { qty: number }) => i.qty)).toEqual([2, 6]);
    expect(await stockOf(pads.id)).toBe(18);
    expect(await stockOf(filter.id)).toBe(44);
    expect((await call(me, "GET", "/api/cart")).json().lines).toEqual([]);
    const profile = (await call(me, "GET", "/api/user")).json();
    expect(profile).toMatchObject({ phoneNo: delivery.phonrNo, address: delivery.Address });

    // The cart now says the parts are ordered, before anything is filled in.
    const again = (await put(me, pads.id, 2)).json();
    expect(again.lines[0].problem).toBe("You have already ordered this product");
    const refused = await checkout(me, 80);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("You have already ordered this product");
  });

  test("a total that changed since it was shown places nothing", async () => {
    const me = await signUp(t.app);
    const p = await insertProduct(t.database.db, { priceCents: 1000, availableQuantity: 20 });
    await put(me, p.id, 2);
    await t.database.db.update(products).set({ priceCents: 1100 }).where(eq(products.id, p.id));
    const res = await checkout(me, 20);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      "Prices or stock changed while you checked out; please check your order again",
    );
    expect(await stockOf(p.id)).toBe(20);
    expect((await call(me, "GET", "/api/cart")).json().lines).toHaveLength(1);
  });

  test("an empty cart, and bad delivery details, are refused with the spec's messages", async () => {
    const me = await signUp(t.app);
    const empty = await checkout(me, 0);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe("Your cart is empty");
    const p = await insertProduct(t.database.db);
    await put(me, p.id, 2);
    const noAddress = await call(me, "POST", "/api/checkout", {
      phonrNo: "5550100",
      Address: " ",
      expectedTotal: 1,
    });
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().fields).toMatchObject({ Address: "Address is Required" });
  });

  test("two tabs checking out the same cart at once place one order", async () => {
    const me = await signUp(t.app);
    const p = await insertProduct(t.database.db, { priceCents: 1000, availableQuantity: 20 });
    await put(me, p.id, 3);
    const results = await Promise.all([checkout(me, 30), checkout(me, 30)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const [customer] = await t.database.db.select().from(user).where(eq(user.email, me.email));
    const placed = await t.database.db.select().from(orders).where(eq(orders.userId, customer!.id));
    expect(placed).toHaveLength(1);
    expect(await stockOf(p.id)).toBe(17);
  });
});
