import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { products } from "../../src/server/catalog/tables";
import type { DbOrTx } from "../../src/server/db/database";
import { testCardRefunds } from "../../src/server/payments/tables";
import { placeTestOrder } from "./destination";
import { insertProduct } from "./factories";
import { injectAs } from "./requests";
import type { TestApp } from "./test-app";

/** Opens the order's payment as the payment page does (POST /api/create-payment-intent). */
export function openPayment(app: FastifyInstance, who: { cookie: string }, orderId: string) {
  return injectAs(app, who, "POST", "/api/create-payment-intent", { orderId });
}

/** Charges Stripe's test card 4242 at the test-card gateway for the intent of this secret. */
export function chargeTestCard(
  app: FastifyInstance,
  who: { cookie: string },
  clientSecret: string,
) {
  return injectAs(app, who, "POST", "/api/payments/test-card/confirm", {
    clientSecret,
    number: "4242 4242 4242 4242",
    expMonth: 12,
    expYear: 2030,
    cvc: "123",
  });
}

/**
 * Pays an order the whole way, as the browser does: opens its payment, charges the test card
 * 4242, then tells the store (PATCH /api/orders/{id}); answers each step's response.
 */
export async function payWithTestCard(
  app: FastifyInstance,
  who: { cookie: string },
  orderId: string,
) {
  const intent = await openPayment(app, who, orderId);
  const charged = await chargeTestCard(app, who, intent.json().clientSecret);
  const paid = await injectAs(app, who, "PATCH", `/api/orders/${orderId}`, {
    transactionId: charged.json().transactionId,
  });
  return { intent, charged, paid };
}

/**
 * Places a one-product order for `who` (to `TEST_SHIP_TO`: the store must ship there, see
 * `shipsToTestAddress`) and opens its payment (as the payment page does).
 */
export async function orderWithIntent(
  app: FastifyInstance,
  who: { cookie: string },
  productId: string,
  qty: number,
) {
  const placed = await placeTestOrder(app, who, productId, qty);
  const orderId = placed.json().order._id as string;
  const intent = await openPayment(app, who, orderId);
  if (intent.statusCode !== 200) throw new Error(`no payment intent: ${intent.body}`);
  const clientSecret = intent.json().clientSecret as string;
  /** Charges Stripe's test card 4242 at the test-card gateway for this intent. */
  const charge = () => chargeTestCard(app, who, clientSecret);
  return { orderId, charge };
}

/**
 * Places a one-product order for `who` and charges a test card for it at the test-card
 * gateway; `confirm()` then tells the store (PATCH /api/orders/{id}), as the payment page does.
 */
export async function orderAndCharge(
  app: FastifyInstance,
  who: { cookie: string },
  productId: string,
  qty: number,
) {
  const { orderId, charge } = await orderWithIntent(app, who, productId, qty);
  const charged = await charge();
  const confirm = () =>
    injectAs(app, who, "PATCH", `/api/orders/${orderId}`, {
      transactionId: charged.json().transactionId,
    });
  return { orderId, confirm };
}

/** The admin cancels the order (PATCH /api/orders/{id}/status, as Manage All Orders does). */
export function cancelOrderAsAdmin(
  app: FastifyInstance,
  admin: { cookie: string },
  orderId: string,
) {
  return injectAs(app, admin, "PATCH", `/api/orders/${orderId}/status`, { status: "cancelled" });
}

/**
 * A fresh part (insertProduct's, minimum order 1, `part` over it) that `buyer` orders `qty` of,
 * pays by test card and confirms; the order's id and the part.
 */
export async function paidOrderOfNewPart(
  t: TestApp,
  buyer: { cookie: string },
  qty: number,
  part: Partial<typeof products.$inferInsert> = {},
) {
  const product = await insertProduct(t.database.db, { minimumOrder: 1, ...part });
  const { orderId, confirm } = await orderAndCharge(t.app, buyer, product.id, qty);
  expect((await confirm()).statusCode).toBe(200);
  return { orderId, part: product };
}

/** The admin marks the order shipped (PATCH /api/orders/{id}/status), which must succeed. */
export async function shipAsAdmin(t: TestApp, admin: { cookie: string }, orderId: string) {
  const res = await injectAs(t.app, admin, "PATCH", `/api/orders/${orderId}/status`, {
    status: "shipped",
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The refunds the test-card gateway made for the store's refund `refundId` (its idempotency key). */
export const testCardRefundsOf = (db: DbOrTx, refundId: string) =>
  db
    .select()
    .from(testCardRefunds)
    .where(eq(testCardRefunds.idempotencyKey, `refund-${refundId}`));

/** The test-card gateway's refunds of one payment, by its intent (an order's `transactionId`). */
export const testCardRefundsOfIntent = (db: DbOrTx, intentId: string) =>
  db.select().from(testCardRefunds).where(eq(testCardRefunds.intentId, intentId));

/**
 * paidOrderOfNewPart's order, then shipped by `admin` (shipAsAdmin): what a customer may ask to
 * return or claim on. The order's id and the part.
 */
export async function shippedOrderOfNewPart(
  t: TestApp,
  buyer: { cookie: string },
  admin: { cookie: string },
  qty: number,
  part: Partial<typeof products.$inferInsert> = {},
) {
  const paid = await paidOrderOfNewPart(t, buyer, qty, part);
  await shipAsAdmin(t, admin, paid.orderId);
  return paid;
}
