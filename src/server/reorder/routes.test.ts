import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { TEST_SHIP_TO, placeTestOrder } from "../../../tests/support/destination";
import { appForTests } from "../../../tests/support/store";
import type { ReorderResult } from "../../contract/reorder";
import { orderItems, orders } from "../orders/tables";
import { products } from "../catalog/tables";

const { t, call } = appForTests({ shipsToTestAddress: true });

test("Order again puts the order's parts in the cart at today's prices and says what changed", async () => {
  const db = t.database.db;
  const who = await signUp(t.app);
  const [a, b, c] = await Promise.all([
    insertProduct(db, { minimumOrder: 1, availableQuantity: 50, priceCents: 1000 }),
    insertProduct(db, { minimumOrder: 1, availableQuantity: 50, priceCents: 2000 }),
    insertProduct(db, { minimumOrder: 1, availableQuantity: 50, priceCents: 3000 }),
  ]);
  const cartPut = (productId: string, qty: number) =>
    call(who, "PUT", `/api/cart/items/${productId}`, { qty });
  await cartPut(a.id, 3);
  await cartPut(b.id, 10);
  await cartPut(c.id, 1);
  const placed = await call(who, "POST", "/api/checkout", {
    phonrNo: "5550100",
    Address: "1 Reorder Road",
    shipTo: TEST_SHIP_TO,
    expectedTotal: 30 + 200 + 30,
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json().order._id as string;
  // Since then: a's price rose, b's stock fell to 4, c was deleted.
  await db.update(products).set({ priceCents: 1250 }).where(eq(products.id, a.id));
  await db.update(products).set({ availableQuantity: 4 }).where(eq(products.id, b.id));
  await db.delete(products).where(eq(products.id, c.id));

  const res = await call(who, "POST", `/api/orders/${orderId}/reorder`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<ReorderResult>();
  expect(body.added).toBe(2);
  expect(body.cart.lines.map((l) => [l.productId, l.qty, l.unitPrice])).toEqual([
    [a.id, 3, 12.5],
    [b.id, 4, 20],
  ]);
  expect(body.changes.map((x) => [x.kind, x.message])).toEqual([
    ["unavailable", `${c.name} is no longer sold`],
    ["price", `${a.name} now costs $12.50 (was $10.00)`],
    ["capped", `${b.name}: only 4 in stock, so 4 instead of 10`],
  ]);
  const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  expect(lines).toHaveLength(3);
});

test("someone else's order, or one that does not exist, is 404; no session is 401", async () => {
  const db = t.database.db;
  const owner = await signUp(t.app);
  const other = await signUp(t.app);
  const p = await insertProduct(db, { minimumOrder: 1 });
  const placed = await placeTestOrder(t.app, owner, p.id, 1, "1 Way");
  const id = placed.json().order._id as string;
  const reorder = (cookie?: string, orderId = id) =>
    t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/reorder`,
      headers: cookie ? { cookie } : {},
    });
  expect((await reorder(other.cookie)).statusCode).toBe(404);
  expect((await reorder(other.cookie, crypto.randomUUID())).statusCode).toBe(404);
  expect((await reorder(other.cookie, "not-a-uuid")).statusCode).toBe(400);
  expect((await reorder()).statusCode).toBe(401);
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  expect(row!.userId).not.toBeNull();
  const cart = await call(other, "GET", "/api/cart");
  expect(cart.json().lines).toEqual([]);
});
