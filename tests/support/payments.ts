import type { FastifyInstance } from "fastify";
import { placeTestOrder } from "./destination";

/** Opens the order's payment as the payment page does (POST /api/create-payment-intent). */
export function openPayment(app: FastifyInstance, who: { cookie: string }, orderId: string) {
  return app.inject({
    method: "POST",
    url: "/api/create-payment-intent",
    headers: { cookie: who.cookie },
    payload: { orderId },
  });
}

/** Charges Stripe's test card 4242 at the test-card gateway for the intent of this secret. */
export function chargeTestCard(
  app: FastifyInstance,
  who: { cookie: string },
  clientSecret: string,
) {
  return app.inject({
    method: "POST",
    url: "/api/payments/test-card/confirm",
    headers: { cookie: who.cookie },
    payload: {
      clientSecret,
      number: "4242 4242 4242 4242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
    },
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
  const paid = await app.inject({
    method: "PATCH",
    url: `/api/orders/${orderId}`,
    headers: { cookie: who.cookie },
    payload: { transactionId: charged.json().transactionId },
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
    app.inject({
      method: "PATCH",
      url: `/api/orders/${orderId}`,
      headers: { cookie: who.cookie },
      payload: { transactionId: charged.json().transactionId },
    });
  return { orderId, confirm };
}

/** The admin cancels the order (PATCH /api/orders/{id}/status, as Manage All Orders does). */
export function cancelOrderAsAdmin(
  app: FastifyInstance,
  admin: { cookie: string },
  orderId: string,
) {
  return app.inject({
    method: "PATCH",
    url: `/api/orders/${orderId}/status`,
    headers: { cookie: admin.cookie },
    payload: { status: "cancelled" },
  });
}
