import { and, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import {
  orderAndCharge,
  cancelOrderAsAdmin,
  paidOrderOfNewPart,
} from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { paymentRefundMessages, type RefundDue } from "../../contract/payments";
import { adminAuditLog } from "../audit/tables";
import { payments, testCardRefunds } from "./tables";
import { orders } from "../orders/tables";
import { createInventory } from "../inventory/service";
import type { PaymentGateway } from "./gateway";
import { createPaymentService } from "./service";
import { createTestCardGateway } from "./test-card-gateway";

/**
 * Refunds of payments the store could not apply (docs/returns.md): through the API with the
 * app's test-card gateway and mail queue, and through the service with a gateway that fails.
 */

const silent = { warn: () => {}, error: () => {} };
const actor = { id: "refund-admin-id", email: "refund-admin@example.com" };

const { t, call, admin, customer, other } = storeForTests({
  admin: "refund-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "refund-customer@example.com", other: "refund-other@example.com" },
});

/**
 * A refund-due payment made the real way: the customer's card is charged for a 2 × $12.50 order,
 * the admin cancels the order before the payment is confirmed, then the payment arrives (409,
 * kept as refund due). A fresh customer each time (card confirmations are rate-limited).
 */
async function refundDuePayment(who?: TestAccount) {
  const buyer = who ?? (await signUp(t.app));
  const part = await insertProduct(t.database.db, {
    priceCents: 1250,
    minimumOrder: 1,
    availableQuantity: 20,
  });
  const { orderId, confirm } = await orderAndCharge(t.app, buyer, part.id, 2);
  const cancelled = await cancelOrderAsAdmin(t.app, admin, orderId);
  expect(cancelled.statusCode).toBe(200);
  expect((await confirm()).statusCode).toBe(409);
  const [payment] = await t.database.db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, "refund_due")));
  expect(payment).toBeDefined();
  return { payment: payment!, orderId, confirm, buyer };
}

const gatewayRefundsOf = (paymentId: string) =>
  t.database.db
    .select()
    .from(testCardRefunds)
    .where(eq(testCardRefunds.idempotencyKey, `payment-refund-${paymentId}`));

const auditOf = (paymentId: string) =>
  t.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetType, "payment"), eq(adminAuditLog.targetId, paymentId)));

const listed = async (): Promise<RefundDue[]> =>
  (await call(admin, "GET", "/api/payments/refunds-due")).json();

test("the admin refunds a refund-due payment in full: once, audited, the customer emailed", async () => {
  const { payment, orderId, confirm } = await refundDuePayment(customer);
  expect(payment.amountCents).toBe(2500);
  expect((await listed()).map((r) => r.id)).toContain(payment.id);

  const res = await call(admin, "POST", `/api/payments/${payment.id}/refund`);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    id: payment.id,
    orderId,
    status: "refunded",
    amount: 25,
    refundError: null,
    gatewayRefundId: expect.stringMatching(/^re_test_/),
    refundedAt: expect.any(String),
  });
  // The gateway gave back the whole payment, once.
  const atGateway = await gatewayRefundsOf(payment.id);
  expect(atGateway).toHaveLength(1);
  expect(atGateway[0]).toMatchObject({
    intentId: payment.gatewayIntentId,
    amountCents: 2500,
    id: res.json().gatewayRefundId,
  });
  // It has left the list; the audit log says who and what.
  expect((await listed()).map((r) => r.id)).not.toContain(payment.id);
  const audit = await auditOf(payment.id);
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({ action: "payment.refund", actorEmail: admin.email });
  expect(audit[0]!.summary).toContain("$25.00");
  expect(audit[0]!.summary).toContain("paid after the store cancelled the order");

  const mail = await waitForMail(t.app, customer.email, /^Your payment of \$25\.00 was refunded$/);
  const [order] = await t.database.db
    .select({ number: orders.number })
    .from(orders)
    .where(eq(orders.id, orderId!));
  expect(mail.text).toContain(`for order PW-${order!.number}`);
  expect(mail.text).toContain("refunded it in full");

  // A second click: a clear 409, nothing more at the gateway.
  const again = await call(admin, "POST", `/api/payments/${payment.id}/refund`);
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toBe(paymentRefundMessages.refundedAlready);
  expect(await gatewayRefundsOf(payment.id)).toHaveLength(1);

  // The same payment confirmed again does not bring it back to the list.
  expect((await confirm()).statusCode).toBe(409);
  const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
  expect(row!.status).toBe("refunded");
  expect((await listed()).map((r) => r.id)).not.toContain(payment.id);
});

test("an unknown payment is 404, a malformed id 400, a payment that is not refund due 409", async () => {
  const unknown = await call(
    admin,
    "POST",
    "/api/payments/00000000-0000-4000-8000-000000000000/refund",
  );
  expect(unknown.statusCode).toBe(404);
  expect(unknown.json().message).toBe(paymentRefundMessages.notFound);
  expect((await call(admin, "POST", "/api/payments/nope/refund")).statusCode).toBe(400);

  // A payment the store applied (the order is paid) is not the admin's to refund here.
  const buyer = await signUp(t.app);
  const { orderId } = await paidOrderOfNewPart(t, buyer, 1, { availableQuantity: 5 });
  const [applied] = await t.database.db
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId));
  const res = await call(admin, "POST", `/api/payments/${applied!.id}/refund`);
  expect(res.statusCode).toBe(409);
  expect(res.json().message).toBe(paymentRefundMessages.notDue("succeeded"));
  expect(await gatewayRefundsOf(applied!.id)).toHaveLength(0);
});

test("who may refund: anonymous 401, the payment's customer and another customer 403, the admin 200", async () => {
  const { payment, buyer } = await refundDuePayment();
  const url = `/api/payments/${payment.id}/refund`;
  expect((await call(undefined, "POST", url)).statusCode).toBe(401);
  expect((await call(buyer, "POST", url)).statusCode).toBe(403);
  expect((await call(other, "POST", url)).statusCode).toBe(403);
  expect(await gatewayRefundsOf(payment.id)).toHaveLength(0);
  expect((await call(admin, "POST", url)).statusCode).toBe(200);
});

/** The payment service on the test app's database, with `gateway` and a mailer that counts. */
function serviceWith(gateway: PaymentGateway) {
  const queued: { to: string; subject: string; key: string }[] = [];
  const service = createPaymentService(
    t.database.db,
    createInventory(t.database.db),
    gateway,
    silent,
    undefined,
    undefined,
    {
      publicUrl: "http://localhost",
      mailer: {
        sendIn: async (_tx, mail, key) =>
          void queued.push({ to: mail.to, subject: mail.subject, key }),
      },
    },
  );
  return { service, queued };
}

test("two refunds at once refund once, audit once and email once", async () => {
  const { payment, buyer } = await refundDuePayment();
  const { service, queued } = serviceWith(createTestCardGateway(t.database.db));
  const outcomes = await Promise.allSettled([
    service.refundPayment(payment.id, actor),
    service.refundPayment(payment.id, actor),
  ]);
  // Each call either saw it refunded (200) or, arriving after, was told so (409).
  for (const o of outcomes) {
    if (o.status === "fulfilled") expect(o.value.status).toBe("refunded");
    else expect(o.reason).toMatchObject({ statusCode: 409 });
  }
  expect(outcomes.some((o) => o.status === "fulfilled")).toBe(true);
  expect(await gatewayRefundsOf(payment.id)).toHaveLength(1);
  const audit = await auditOf(payment.id);
  expect(audit.map((a) => a.action)).toEqual(["payment.refund"]);
  expect(queued).toEqual([
    {
      to: buyer.email,
      subject: "Your payment of $25.00 was refunded",
      key: `payment-refunded:${payment.id}`,
    },
  ]);
});

test("a gateway failure leaves the payment refund due with the gateway's words; the retry refunds once", async () => {
  const { payment } = await refundDuePayment();
  const real = createTestCardGateway(t.database.db);
  let failures = 1;
  const { service, queued } = serviceWith({
    ...real,
    refund: async (input) => {
      if (failures-- > 0) throw new Error("Gateway timed out");
      return real.refund(input);
    },
  });

  const failed = await service.refundPayment(payment.id, actor);
  expect(failed).toMatchObject({
    status: "refund_due",
    refundError: "Gateway timed out",
    gatewayRefundId: null,
    refundedAt: null,
  });
  // Nothing half-written: no money moved, no email, still listed with the error to show.
  expect(await gatewayRefundsOf(payment.id)).toHaveLength(0);
  expect(queued).toHaveLength(0);
  const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
  expect(row).toMatchObject({ status: "refund_due", gatewayRefundId: null, refundedAt: null });
  expect((await listed()).find((r) => r.id === payment.id)).toMatchObject({
    status: "refund_due",
    refundError: "Gateway timed out",
  });
  expect((await auditOf(payment.id)).map((a) => a.action)).toEqual(["payment.refund_failed"]);

  const retried = await service.refundPayment(payment.id, actor);
  expect(retried).toMatchObject({ status: "refunded", refundError: null });
  expect(await gatewayRefundsOf(payment.id)).toHaveLength(1);
  expect(queued).toHaveLength(1);
  expect((await auditOf(payment.id)).map((a) => a.action).sort()).toEqual([
    "payment.refund",
    "payment.refund_failed",
  ]);
});

test("a payment taken through a gateway the store no longer runs is not refunded here", async () => {
  const { payment } = await refundDuePayment();
  await t.database.db
    .update(payments)
    .set({ gateway: "stripe" })
    .where(eq(payments.id, payment.id));
  let called = 0;
  const real = createTestCardGateway(t.database.db);
  const { service } = serviceWith({ ...real, refund: async (i) => (called++, real.refund(i)) });
  const res = await service.refundPayment(payment.id, actor);
  expect(res).toMatchObject({
    status: "refund_due",
    refundError: paymentRefundMessages.otherGateway("stripe"),
  });
  expect(called).toBe(0);
});
