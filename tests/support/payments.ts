import type { FastifyInstance } from "fastify";
import { TEST_SHIP_TO } from "./destination";

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
  const headers = { cookie: who.cookie };
  const placed = await app.inject({
    method: "POST",
    url: "/api/orders",
    headers,
    payload: {
      productId,
      orderQty: qty,
      phonrNo: "5550100",
      Address: "1 Dock Road",
      shipTo: TEST_SHIP_TO,
    },
  });
  const orderId = placed.json().order._id as string;
  const intent = await app.inject({
    method: "POST",
    url: "/api/create-payment-intent",
    headers,
    payload: { orderId },
  });
  if (intent.statusCode !== 200) throw new Error(`no payment intent: ${intent.body}`);
  const clientSecret = intent.json().clientSecret as string;
  /** Charges Stripe's test card 4242 at the test-card gateway for this intent. */
  const charge = () =>
    app.inject({
      method: "POST",
      url: "/api/payments/test-card/confirm",
      headers,
      payload: {
        clientSecret,
        number: "4242 4242 4242 4242",
        expMonth: 12,
        expYear: 2030,
        cvc: "123",
      },
    });
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
