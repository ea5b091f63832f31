import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { TEST_SELLER } from "../../../tests/support/invoices";
import { orderAndCharge, cancelOrderAsAdmin } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { createInventory } from "../inventory/service";
import { invoices } from "../invoices/tables";
import { createInvoiceService } from "../invoices/service";
import { orders } from "../orders/tables";
import { createPaymentService } from "./service";
import { createStripeGateway } from "./stripe-gateway";
import { payments } from "./tables";
import { createTestCardGateway } from "./test-card-gateway";

/**
 * Reconciliation (issue 49, finding 13): a card charged at the gateway whose confirmation never
 * reached the store (the store down, the page closed) is found by the recurring job's run and
 * applied to its order, or kept as refund due when the order cannot take it.
 */

const HOUR = 3_600_000;

const { t, call, admin, customer } = storeForTests({
  admin: "reconcile-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "reconcile-customer@example.com" },
});

/** What the reconciliation job runs (payments/reconcile-job.ts), over the test-card gateway. */
const reconcile = () =>
  createPaymentService(
    t.database.db,
    createInventory(t.database.db),
    createTestCardGateway(t.database.db),
    { warn: () => {}, error: () => {} },
    undefined,
    createInvoiceService(t.database.db, { seller: TEST_SELLER }),
  ).reconcile(new Date(Date.now() - HOUR));

/** A part ordered and charged at the gateway; the store is never told (no confirm). */
async function chargedUntold() {
  const part = await insertProduct(t.database.db, {
    priceCents: 1200,
    minimumOrder: 1,
    availableQuantity: 10,
  });
  const { orderId } = await orderAndCharge(t.app, customer, part.id, 1);
  return orderId;
}
const orderRow = async (id: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

test("a charge confirmed at the gateway whose confirmation never reached the store is applied by the job", async () => {
  const orderId = await chargedUntold();
  expect((await orderRow(orderId)).status).toBe("unpaid");

  expect(await reconcile()).toBeGreaterThanOrEqual(1);
  const paid = await orderRow(orderId);
  expect(paid).toMatchObject({ status: "paid", paidWith: "test-card" });
  expect(paid.transactionId).toMatch(/^pi_test_/);
  const [payment] = await t.database.db
    .select()
    .from(payments)
    .where(eq(payments.gatewayIntentId, paid.transactionId!));
  expect(payment!.status).toBe("succeeded");
  const issued = await t.database.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "invoice")));
  expect(issued).toHaveLength(1);

  // Run again: nothing more to settle for it, and the customer's late confirmation agrees.
  await reconcile();
  expect((await orderRow(orderId)).paidAt).toEqual(paid.paidAt);
  const late = await call(customer, "PATCH", `/api/orders/${orderId}`, {
    transactionId: paid.transactionId,
  });
  expect(late.statusCode, late.body).toBe(200);
});

test("a charge for an order the store cancelled meanwhile is kept as refund due", async () => {
  const orderId = await chargedUntold();
  const cancelled = await cancelOrderAsAdmin(t.app, admin, orderId);
  expect(cancelled.statusCode, cancelled.body).toBe(200);

  await reconcile();
  expect((await orderRow(orderId)).status).toBe("cancelled");
  const [kept] = await t.database.db.select().from(payments).where(eq(payments.orderId, orderId));
  expect(kept).toMatchObject({
    status: "refund_due",
    refundReason: "paid after the store cancelled the order",
  });
  const due = await call(admin, "GET", "/api/payments/refunds-due");
  expect(due.json().map((r: { orderId: string }) => r.orderId)).toContain(orderId);
});

test("the Stripe adapter lists the succeeded PaymentIntents created since, page by page", async () => {
  const asked: unknown[] = [];
  const pi = (id: string, status: string) => ({
    id,
    status,
    amount: 1200,
    currency: "usd",
    client_secret: `${id}_secret`,
    metadata: { orderId: `order-${id}` },
  });
  const pages = [
    { data: [pi("pi_1", "succeeded"), pi("pi_2", "requires_payment_method")], has_more: true },
    { data: [pi("pi_3", "succeeded")], has_more: false },
  ];
  const client = {
    paymentIntents: {
      list: async (params: unknown) => {
        asked.push(params);
        return pages.shift();
      },
    },
  } as unknown as Stripe;
  const since = new Date("2026-12-01T10:00:00Z");
  const listed = await createStripeGateway(client).listRecentPayments(since);
  expect(listed.map((i) => [i.id, i.orderId, i.amountCents, i.status])).toEqual([
    ["pi_1", "order-pi_1", 1200, "succeeded"],
    ["pi_3", "order-pi_3", 1200, "succeeded"],
  ]);
  const gte = since.getTime() / 1000;
  expect(asked).toEqual([
    { created: { gte }, limit: 100 },
    { created: { gte }, limit: 100, starting_after: "pi_2" },
  ]);
});
