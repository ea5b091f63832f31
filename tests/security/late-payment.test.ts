import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { orders } from "../../src/server/orders/tables";
import { payments, testCardIntents } from "../../src/server/payments/tables";
import { products } from "../../src/server/catalog/tables";
import { CANCELED_MESSAGE } from "../../src/server/payments/test-card-gateway";
import { signUp } from "../support/accounts";
import { insertProduct } from "../support/factories";
import { cancelOrderAsAdmin, orderAndCharge, orderWithIntent } from "../support/payments";
import { storeForTests } from "../support/store";

// Penetration test of 75cca6d, finding 14: an order the admin cancelled became paid when the
// customer paid a payment intent opened before the cancel.

const { t, call, admin, customer } = storeForTests({
  admin: "late-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: {} },
});

/** An order of 3 parts with a card already charged for it, not yet confirmed to the store. */
async function chargedOrder() {
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 10 });
  return { productId: p.id, ...(await orderAndCharge(t.app, customer, p.id, 3)) };
}

const stockOf = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0]!.availableQuantity;

test("a payment arriving for an order the store cancelled does not revive it", async () => {
  const { orderId, productId, confirm } = await chargedOrder();
  const cancelled = await cancelOrderAsAdmin(t.app, admin, orderId);
  expect(cancelled.statusCode).toBe(200);
  expect(await stockOf(productId)).toBe(10);

  const late = await confirm();
  expect(late.statusCode).toBe(409);
  expect(late.json().message).toBe(
    "This order was cancelled before the payment arrived; it will be refunded",
  );
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  expect(row!.status).toBe("cancelled");
  expect(await stockOf(productId)).toBe(10);
  // The money is in the admin's list of payments to refund (fault injection, row 7).
  const due = await call(admin, "GET", "/api/payments/refunds-due");
  expect(due.statusCode).toBe(200);
  expect(due.json()).toContainEqual(
    expect.objectContaining({
      orderId,
      amount: row!.totalCents / 100,
      reason: "paid after the store cancelled the order",
    }),
  );
});

test("a payment arriving after the hold ran out still takes the stock again", async () => {
  const { orderId, productId, confirm } = await chargedOrder();
  // The sweeper's cancellation: the hold ended, then the order was cancelled and its stock freed.
  await t.database.db
    .update(orders)
    .set({
      status: "cancelled",
      holdExpiresAt: new Date(Date.now() - 60_000),
      cancelledAt: new Date(),
    })
    .where(eq(orders.id, orderId));
  await t.database.db
    .update(products)
    .set({ availableQuantity: 10 })
    .where(eq(products.id, productId));

  const late = await confirm();
  expect(late.statusCode).toBe(200);
  expect(late.json()).toMatchObject({ status: "paid" });
  expect(await stockOf(productId)).toBe(7);
});

test("cancelling an order cancels its open payment at the gateway: the card is not charged", async () => {
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 10 });
  const { orderId, charge } = await orderWithIntent(t.app, customer, p.id, 2);
  const cancelled = await cancelOrderAsAdmin(t.app, admin, orderId);
  expect(cancelled.statusCode).toBe(200);

  // The payment page was still open: the card it sends is refused, and nothing is charged.
  const charged = await charge();
  expect(charged.statusCode).toBe(409);
  expect(charged.json().message).toBe(CANCELED_MESSAGE);
  const [payment] = await t.database.db
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId));
  expect(payment!.status).toBe("canceled");
  const [intentRow] = await t.database.db
    .select()
    .from(testCardIntents)
    .where(eq(testCardIntents.orderId, orderId));
  expect(intentRow).toMatchObject({ status: "canceled", cardLast4: null });
});

test("cancelling an account's holds, or removing the account, cancels their open payments at the gateway", async () => {
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 10 });
  const intentStatus = async (orderId: string) =>
    (
      await t.database.db
        .select({ status: testCardIntents.status })
        .from(testCardIntents)
        .where(eq(testCardIntents.orderId, orderId))
    )[0]?.status;
  /** The id of the account that placed the order. */
  const placedBy = async (orderId: string) =>
    (
      await t.database.db.select({ id: orders.userId }).from(orders).where(eq(orders.id, orderId))
    )[0]!.id as string;

  // The admin cancels every unpaid order of the account: the open payment page cannot pay.
  const holder = await signUp(t.app);
  const held = await orderWithIntent(t.app, holder, p.id, 2);
  const holds = await call(admin, "DELETE", `/api/holds/${await placedBy(held.orderId)}`);
  expect(holds.json()).toEqual({ cancelledOrders: 1 });
  const charged = await held.charge();
  expect(charged.statusCode).toBe(409);
  expect(charged.json().message).toBe(CANCELED_MESSAGE);
  expect(await intentStatus(held.orderId)).toBe("canceled");

  // The admin removes an account with an unpaid order and its payment open.
  const leaving = await signUp(t.app);
  const open = await orderWithIntent(t.app, leaving, p.id, 1);
  const removed = await call(admin, "DELETE", `/api/users/${await placedBy(open.orderId)}`);
  expect(removed.json()).toEqual({ success: true, cancelledOrders: 1 });
  expect(await intentStatus(open.orderId)).toBe("canceled");
  const [payment] = await t.database.db
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.orderId, open.orderId));
  expect(payment?.status).toBe("canceled");
  expect(await stockOf(p.id)).toBe(10);
});
