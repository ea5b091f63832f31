import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { orderOfNewPart } from "../../../tests/support/part-orders";
import { appForTests, shippingAppWithAdmin, storeForTests } from "../../../tests/support/store";
import { injectAs } from "../../../tests/support/requests";
import { expectTooManyRequests } from "../../../tests/support/too-many";
import type { TestApp } from "../../../tests/support/test-app";
import { orders } from "../orders/tables";
import { payments } from "./tables";
import { luhnValid } from "../../contract/cards";
import { checkCard } from "./test-card-gateway";

async function placeOrder(t: TestApp, who: TestAccount, priceCents = 1999, qty = 3) {
  const { res } = await orderOfNewPart(t, who, qty, { priceCents });
  return res.json().order as { _id: string; productId: string; total: number };
}

describe("the test-card gateway", () => {
  const { t, call, admin, customer, other } = storeForTests({
    admin: "pay-admin@example.com",
    shipsToTestAddress: true,
    customers: { customer: {}, other: {} },
  });

  const intent = (orderId: string, who?: TestAccount, extra: object = {}) =>
    call(who, "POST", "/api/create-payment-intent", { orderId, ...extra });
  const card = { number: "4242 4242 4242 4242", expMonth: 12, expYear: 2030, cvc: "123" };
  const confirm = (clientSecret: string, who?: TestAccount, c: object = card) =>
    call(who, "POST", "/api/payments/test-card/confirm", { clientSecret, ...c });
  const markPaid = (orderId: string, transactionId: string, who?: TestAccount) =>
    call(who, "PATCH", `/api/orders/${orderId}`, { transactionId });

  test("create-payment-intent: anonymous 401, another customer and admin 404, owner 200", async () => {
    const order = await placeOrder(t, customer);
    expect((await intent(order._id)).statusCode).toBe(401);
    expect((await intent(order._id, other)).statusCode).toBe(404);
    expect((await intent(order._id, admin)).statusCode).toBe(404);
    const res = await intent(order._id, customer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      clientSecret: expect.stringMatching(/^pi_test_\w+_secret_\w+$/),
      amount: 59.97,
      currency: "USD",
      gateway: "test-card",
    });
  });

  test("the amount comes from the order: a price sent by the client is ignored", async () => {
    const order = await placeOrder(t, customer, 5000, 2);
    const res = await intent(order._id, customer, { price: 0.5, amount: 1 });
    expect(res.json().amount).toBe(100);
    const [row] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, order._id));
    expect(row?.amountCents).toBe(10_000);
  });

  test("a full payment: confirm with 4242…, then PATCH marks the order paid; twice is harmless", async () => {
    const order = await placeOrder(t, customer);
    const { clientSecret } = (await intent(order._id, customer)).json();
    expect((await confirm(clientSecret)).statusCode).toBe(401);
    // The secret alone is not enough: only the order's owner may charge a card for it.
    expect((await confirm(clientSecret, other)).statusCode).toBe(404);
    expect((await confirm(clientSecret, admin)).statusCode).toBe(404);
    const charged = await confirm(clientSecret, customer);
    expect(charged.statusCode).toBe(200);
    const { transactionId } = charged.json();
    expect(transactionId).toMatch(/^pi_test_/);

    expect((await markPaid(order._id, transactionId)).statusCode).toBe(401);
    expect((await markPaid(order._id, transactionId, other)).statusCode).toBe(404);
    expect((await markPaid(order._id, transactionId, admin)).statusCode).toBe(404);
    const paid = await markPaid(order._id, transactionId, customer);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ paid: true, status: "paid", transactionId });

    // The same confirmation again (a double click, a retry): one payment, one paid transition.
    const again = await markPaid(order._id, transactionId, customer);
    expect(again.statusCode).toBe(200);
    expect(again.json().paidAt).toBe(paid.json().paidAt);
    expect((await confirm(clientSecret, customer)).json().transactionId).toBe(transactionId);
    // Paid: no second intent, no delete.
    expect((await intent(order._id, customer)).statusCode).toBe(409);
    const del = await call(customer, "DELETE", `/api/orders/${order._id}`);
    expect(del.statusCode).toBe(422);
  });

  test("a forged or foreign transaction id is rejected and the order stays unpaid", async () => {
    const order = await placeOrder(t, customer);
    const forged = await markPaid(order._id, "pi_test_forged", customer);
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toMatch(/could not be verified/);

    // A real, succeeded payment, but for someone else's order (and another amount).
    const otherOrder = await placeOrder(t, other, 100, 1);
    const { clientSecret } = (await intent(otherOrder._id, other)).json();
    const { transactionId } = (await confirm(clientSecret, other)).json();
    expect((await markPaid(order._id, transactionId, customer)).statusCode).toBe(422);

    // An intent for this order that was never charged.
    const unpaidIntent = (await intent(order._id, customer))
      .json()
      .clientSecret.split("_secret_")[0];
    expect((await markPaid(order._id, unpaidIntent, customer)).statusCode).toBe(422);

    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe("unpaid");
  });

  test.each([
    ["4000 0000 0000 0002", "Your card was declined."],
    ["4000 0000 0000 9995", "Your card has insufficient funds."],
  ])("the card %s is declined with %j and the order stays unpaid", async (number, message) => {
    const order = await placeOrder(t, customer);
    const { clientSecret } = (await intent(order._id, customer)).json();
    const res = await confirm(clientSecret, customer, { ...card, number });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ error: "card_declined", message });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe("unpaid");
  });
});

test("card checks: Luhn, expiry, CVC and Stripe's test numbers", () => {
  expect(luhnValid("4242424242424242")).toBe(true);
  expect(luhnValid("4242424242424241")).toBe(false);
  const now = new Date("2026-11-21T00:00:00Z");
  const ok = { number: "4242424242424242", expMonth: 11, expYear: 26, cvc: "123" };
  expect(checkCard(ok, now)).toBe("4242");
  expect(() => checkCard({ ...ok, number: "4242424242424241" }, now)).toThrow(
    "Your card number is invalid.",
  );
  expect(() => checkCard({ ...ok, expMonth: 10 }, now)).toThrow("Your card has expired.");
  expect(() => checkCard({ ...ok, expMonth: 13 }, now)).toThrow(
    "Your card's expiration month is invalid.",
  );
  expect(() => checkCard({ ...ok, cvc: "12" }, now)).toThrow(
    "Your card's security code is invalid.",
  );
  expect(() => checkCard({ ...ok, number: "4111111111111111" }, now)).toThrow(
    "Your card was declined.",
  );
});

describe("the Stripe gateway's webhook", () => {
  const secret = "whsec_test_secret";
  const { t, call, customer } = appForTests({
    env: {
      STRIPE_SECRET_KEY: "sk_test_dummy",
      STRIPE_PUBLISHABLE_KEY: "pk_test_dummy",
      STRIPE_WEBHOOK_SECRET: secret,
    },
    shipsToTestAddress: true,
    customers: { customer: {} },
  });
  const stripe = new Stripe("sk_test_dummy");

  const event = (id: string, orderId: string, amount: number) =>
    JSON.stringify({
      id,
      object: "event",
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: `pi_${id.replace(/[^A-Za-z0-9]/g, "")}`,
          object: "payment_intent",
          amount,
          currency: "usd",
          status: "succeeded",
          client_secret: null,
          metadata: { orderId },
        },
      },
    });
  /** The payment stored for the gateway's intent `intentId`. */
  const storedPayment = async (intentId: string) =>
    (await t.database.db.select().from(payments).where(eq(payments.gatewayIntentId, intentId)))[0];
  const send = (payload: string, signature: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      payload,
    });

  test("the site config names Stripe and its publishable key", async () => {
    const res = await call(null, "GET", "/api/config");
    expect(res.json().payments).toEqual({ gateway: "stripe", publishableKey: "pk_test_dummy" });
  });

  test("a signed payment_intent.succeeded marks the order paid; a replay changes nothing", async () => {
    const order = await placeOrder(t, customer, 1999, 3);
    const payload = event("evt_1", order._id, 5997);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const first = await send(payload, header);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, result: "handled" });
    const [paid] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(paid).toMatchObject({ status: "paid", transactionId: "pi_evt1" });

    const replay = await send(
      payload,
      stripe.webhooks.generateTestHeaderString({ payload, secret }),
    );
    expect(replay.json()).toEqual({ received: true, result: "duplicate" });
    const [still] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(still?.paidAt?.getTime()).toBe(paid?.paidAt?.getTime());
  });

  test("a wrong signature is rejected and nothing changes", async () => {
    const order = await placeOrder(t, customer);
    const payload = event("evt_2", order._id, 5997);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" });
    const res = await send(payload, forged);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: "bad_signature",
      message: "The webhook signature is not valid",
    });
    expect((await send(payload, "")).statusCode).toBe(400);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe("unpaid");
  });

  test("an event whose amount does not match the order does not pay it", async () => {
    const order = await placeOrder(t, customer);
    const payload = event("evt_3", order._id, 1);
    const res = await send(payload, stripe.webhooks.generateTestHeaderString({ payload, secret }));
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe("unpaid");
    // The money taken is not only in a log: a payment to refund, with why.
    const stored = await storedPayment("pi_evt3");
    expect(stored).toMatchObject({
      status: "refund_due",
      orderId: order._id,
      amountCents: 1,
      refundReason: "the amount or currency differs",
    });
  });

  test("the same event delivered ten times at once is handled once", async () => {
    // Fault injection of 75cca6d, row 7: the duplicate check was a read, then a write.
    const order = await placeOrder(t, customer, 1999, 3);
    const payload = event("evt_4", order._id, 5997);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        send(payload, stripe.webhooks.generateTestHeaderString({ payload, secret })),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    const results = answers.map((a) => (a.json() as { result: string }).result).sort();
    expect(results).toEqual([...Array(9).fill("duplicate"), "handled"]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.status).toBe("paid");
  });

  test("a second payment for a paid order is stored as refund due and answered 200", async () => {
    const order = await placeOrder(t, customer, 1999, 3);
    const first = event("evt_5", order._id, 5997);
    await send(first, stripe.webhooks.generateTestHeaderString({ payload: first, secret }));
    const second = event("evt_6", order._id, 5997);
    const res = await send(
      second,
      stripe.webhooks.generateTestHeaderString({ payload: second, secret }),
    );
    expect(res.statusCode).toBe(200);
    const stored = await storedPayment("pi_evt6");
    expect(stored).toMatchObject({
      status: "refund_due",
      refundReason: "a second payment for a paid order",
    });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.transactionId).toBe("pi_evt5");
  });
});

test("card confirmations per client IP stop at PAYMENT_CONFIRM_LIMIT_PER_IP in 10 minutes: 429", async () => {
  const { t } = await shippingAppWithAdmin("pay-limit-admin@example.com", {
    PAYMENT_CONFIRM_LIMIT_PER_IP: "2",
  });
  try {
    const answers = [];
    // Three customers, one confirmation each: the per-customer limit is not what stops them.
    for (let i = 0; i < 3; i++) {
      const who = await signUp(t.app);
      const order = await placeOrder(t, who);
      const opened = await injectAs(t.app, who, "POST", "/api/create-payment-intent", {
        orderId: order._id,
      });
      answers.push(
        await injectAs(t.app, who, "POST", "/api/payments/test-card/confirm", {
          clientSecret: opened.json().clientSecret,
          number: "4242 4242 4242 4242",
          expMonth: 12,
          expYear: 2030,
          cvc: "123",
        }),
      );
    }
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 429]);
    expectTooManyRequests(answers[2]!);
  } finally {
    await t.close();
  }
});
