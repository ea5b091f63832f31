import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { orderOfNewPart } from "../../../tests/support/part-orders";
import { storeForTests } from "../../../tests/support/store";
import { payWithTestCard } from "../../../tests/support/payments";
import { products } from "../catalog/tables";

async function placeOrder(who: TestAccount, name: string, qty = 2, priceCents = 1000) {
  const { res, product } = await orderOfNewPart(t, who, qty, {
    name,
    priceCents,
    availableQuantity: 50,
  });
  return { order: res.json().order as { _id: string; total: number }, productId: product.id };
}

const pay = (who: TestAccount, orderId: string) => payWithTestCard(t.app, who, orderId);

const changeStatus = (id: string, status: string, who?: TestAccount) =>
  call(who, "PATCH", `/api/orders/${id}/status`, { status });

const { t, call, admin, customer, other } = storeForTests({
  admin: "orders-boss@example.com",
  shipsToTestAddress: true,
  customers: { customer: "casey.orders@example.com", other: "olly.orders@example.com" },
});

describe("authorisation of the admin order routes", () => {
  test.each(["/api/orders/all", "/api/orders/overview"])("GET %s", async (url) => {
    expect((await call(null, "GET", url)).statusCode).toBe(401);
    expect((await call(customer, "GET", url)).statusCode).toBe(403);
    expect((await call(other, "GET", url)).statusCode).toBe(403);
    expect((await call(admin, "GET", url)).statusCode).toBe(200);
  });

  test("PATCH /api/orders/{id}/status", async () => {
    const { order } = await placeOrder(customer, "Auth check part");
    expect((await changeStatus(order._id, "cancelled")).statusCode).toBe(401);
    expect((await changeStatus(order._id, "cancelled", customer)).statusCode).toBe(403);
    expect((await changeStatus(order._id, "cancelled", other)).statusCode).toBe(403);
    expect((await changeStatus(order._id, "cancelled", admin)).statusCode).toBe(200);
  });
});

test("admins list every order newest first, filter by status and search by email or product", async () => {
  const a = await placeOrder(customer, "Listing gasket");
  const b = await placeOrder(other, "Listing hose");
  await pay(other, b.order._id);

  const all = await call(admin, "GET", "/api/orders/all");
  const ids = all.json().map((o: { _id: string }) => o._id);
  expect(ids.indexOf(b.order._id)).toBeLessThan(ids.indexOf(a.order._id));
  expect(Number(all.headers["x-total-count"])).toBeGreaterThanOrEqual(2);
  expect(all.json()[0]).toHaveProperty("customerName");

  const paid = await call(admin, "GET", "/api/orders/all?status=paid");
  expect(paid.json().every((o: { status: string }) => o.status === "paid")).toBe(true);
  expect(paid.json().map((o: { _id: string }) => o._id)).toContain(b.order._id);

  const byEmail = await call(admin, "GET", "/api/orders/all?q=CASEY.ORDERS");
  expect(byEmail.json().map((o: { _id: string }) => o._id)).toContain(a.order._id);
  expect(byEmail.json().map((o: { _id: string }) => o._id)).not.toContain(b.order._id);

  const byProduct = await call(admin, "GET", "/api/orders/all?q=listing%20hose");
  expect(byProduct.json().map((o: { _id: string }) => o._id)).toEqual([b.order._id]);

  const bad = await call(admin, "GET", "/api/orders/all?status=lost");
  expect(bad.statusCode).toBe(400);
});

// (paid -> cancelled refunds the order: returns/returns.test.ts)
test("only the allowed transitions: paid -> shipped, unpaid -> cancelled (stock returned), never shipped -> cancelled", async () => {
  const unpaid = await placeOrder(customer, "Transition bracket", 5);
  const paid = await placeOrder(customer, "Transition mount", 3);
  await pay(customer, paid.order._id);

  const shipUnpaid = await changeStatus(unpaid.order._id, "shipped", admin);
  expect(shipUnpaid.statusCode).toBe(422);
  expect(shipUnpaid.json().message).toBe("Only paid orders can be shipped; this one is unpaid");
  const shipped = await changeStatus(paid.order._id, "shipped", admin);
  expect(shipped.statusCode).toBe(200);
  const cancelShipped = await changeStatus(paid.order._id, "cancelled", admin);
  expect(cancelShipped.statusCode).toBe(422);
  expect(shipped.json()).toMatchObject({ status: "shipped", paid: true });
  expect(shipped.json().shippedAt).toEqual(expect.any(String));
  // The customer sees it shipped.
  const mine = await call(customer, "GET", "/api/orders");
  expect(mine.json().find((o: { _id: string }) => o._id === paid.order._id).status).toBe("shipped");

  const stockBefore = (
    await t.database.db.select().from(products).where(eq(products.id, unpaid.productId))
  )[0]?.availableQuantity;
  expect((await changeStatus(unpaid.order._id, "cancelled", admin)).statusCode).toBe(200);
  const stockAfter = (
    await t.database.db.select().from(products).where(eq(products.id, unpaid.productId))
  )[0]?.availableQuantity;
  expect(stockAfter).toBe(stockBefore! + 5);
  // Cancelling again changes nothing (and returns no stock twice).
  expect((await changeStatus(unpaid.order._id, "cancelled", admin)).statusCode).toBe(200);
  expect(
    (await t.database.db.select().from(products).where(eq(products.id, unpaid.productId)))[0]
      ?.availableQuantity,
  ).toBe(stockAfter);
  expect((await changeStatus(unpaid.order._id, "refunded", admin)).statusCode).toBe(400);
});

test("the overview counts orders by status and sums today's revenue", async () => {
  const before = (await call(admin, "GET", "/api/orders/overview")).json();
  const { order } = await placeOrder(other, "Overview part", 4, 2500);
  await pay(other, order._id);
  const after = (await call(admin, "GET", "/api/orders/overview")).json();
  expect(after.days).toHaveLength(30);
  expect(after.byStatus.paid).toBe(before.byStatus.paid + 1);
  const today = after.days.at(-1);
  const todayBefore = before.days.at(-1);
  expect(today.orders).toBe(todayBefore.orders + 1);
  expect(today.revenue).toBeCloseTo(todayBefore.revenue + 100, 2);
  expect(after.currency).toBe("USD");
});

test("an admin sees who holds what, and cancels one account's holds in one action", async () => {
  const holder = await signUp(t.app);
  const first = await placeOrder(holder, "Held brake disc", 3, 2000);
  const second = await placeOrder(holder, "Held wiper blade", 4, 500);
  const bystander = await placeOrder(other, "Bystander's filter", 1, 700);
  const get = () => call(admin, "GET", "/api/holds");

  const holds = (await get()).json() as { userId: string; orderEmail: string }[];
  const held = holds.find((h) => h.orderEmail === holder.email);
  expect(held).toMatchObject({ orders: 2, units: 7, value: 80 });

  const cancel = await call(admin, "DELETE", `/api/holds/${held!.userId}`);
  expect(cancel.json()).toEqual({ cancelledOrders: 2 });
  const nobody = await call(admin, "DELETE", "/api/holds/no-such-account");
  expect(nobody.statusCode).toBe(404);
  expect(
    (await get()).json().some((h: { orderEmail: string }) => h.orderEmail === holder.email),
  ).toBe(false);
  for (const { productId } of [first, second]) {
    const [row] = await t.database.db.select().from(products).where(eq(products.id, productId));
    expect(row?.availableQuantity).toBe(50);
  }
  const [kept] = await t.database.db
    .select()
    .from(products)
    .where(eq(products.id, bystander.productId));
  expect(kept?.availableQuantity).toBe(49);
});
