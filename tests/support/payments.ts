import type { FastifyInstance } from "fastify";

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
  const headers = { cookie: who.cookie };
  const placed = await app.inject({
    method: "POST",
    url: "/api/orders",
    headers,
    payload: { productId, orderQty: qty, phonrNo: "5550100", Address: "1 Dock Road" },
  });
  const orderId = placed.json().order._id as string;
  const intent = await app.inject({
    method: "POST",
    url: "/api/create-payment-intent",
    headers,
    payload: { orderId },
  });
  const charged = await app.inject({
    method: "POST",
    url: "/api/payments/test-card/confirm",
    headers,
    payload: {
      clientSecret: intent.json().clientSecret,
      number: "4242 4242 4242 4242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
    },
  });
  const confirm = () =>
    app.inject({
      method: "PATCH",
      url: `/api/orders/${orderId}`,
      headers,
      payload: { transactionId: charged.json().transactionId },
    });
  return { orderId, confirm };
}
