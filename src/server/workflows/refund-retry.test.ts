import { and, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { creditNotesOf, TEST_SELLER } from "../../../tests/support/invoices";
import { paidOrderOfNewPart, testCardRefundsOf } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { adminAuditLog } from "../audit/tables";
import { createInventory } from "../inventory/service";
import { createOrderService } from "../orders/service";
import type { PaymentGateway } from "../payments/gateway";
import { createTestCardGateway } from "../payments/test-card-gateway";
import { refunds } from "../returns/tables";
import { createOrderStatus } from "./order-status";
import { createRefunds } from "./refund";

/**
 * Refunds that always finish (issue 49, finding 9): a cancelled paid order whose refund failed
 * at the gateway, or was cut off before the gateway answered, is listed for admins, retried by the
 * job, by an admin and by cancelling again, always with its one idempotency key; its credit note
 * comes once it went through.
 */

const MINUTE = 60_000;

const { t, call, admin, customer } = storeForTests({
  admin: "refund-retry-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "refund-retry-customer@example.com" },
});

/** The test-card gateway failing its next `failures` refunds the way a timeout does. */
function failing(failures: number, refund?: PaymentGateway["refund"]): PaymentGateway {
  const real = createTestCardGateway(t.database.db);
  return {
    ...real,
    refund: async (input) => {
      if (failures-- > 0) throw new Error("Gateway timed out");
      return (refund ?? real.refund)(input);
    },
  };
}

/** The admin's cancel (workflows/order-status.ts) and the refund engine over `gateway`. */
function cancellingWith(gateway: PaymentGateway, now?: () => Date) {
  const inventory = createInventory(t.database.db);
  const engine = createRefunds(t.database.db, gateway, {
    seller: TEST_SELLER,
    publicUrl: "http://localhost",
    log: { error: () => {} },
    now,
  });
  const status = createOrderStatus({
    inventory,
    refunds: engine,
    payments: { cancelIntentsOf: async () => {} },
    orders: createOrderService(t.database.db, inventory, { currency: "USD" }),
  });
  return { engine, cancel: (id: string) => status.changeStatus(id, "cancelled") };
}

/** A paid order of the customer's ($30.00). */
async function paidOrder() {
  const { orderId } = await paidOrderOfNewPart(t, customer, 2, {
    priceCents: 1500,
    availableQuantity: 20,
  });
  return orderId;
}

const refundOf = async (orderId: string) =>
  (await t.database.db.select().from(refunds).where(eq(refunds.orderId, orderId)))[0]!;
const creditNotes = (orderId: string) => creditNotesOf(t.database.db, orderId);
const gatewayRefunds = (refundId: string) => testCardRefundsOf(t.database.db, refundId);
const asAdmin = (method: "GET" | "POST", url: string) => call(admin, method, url);

test("a failed cancellation refund is listed for admins; cancelling again refunds it once, with one credit note", async () => {
  const orderId = await paidOrder();
  const { cancel } = cancellingWith(failing(1));
  expect((await cancel(orderId)).status).toBe("cancelled");
  const failed = await refundOf(orderId);
  expect(failed).toMatchObject({ status: "failed", error: "Gateway timed out", attempts: 1 });
  expect(await creditNotes(orderId)).toHaveLength(0);

  const listed = await asAdmin("GET", "/api/refunds");
  expect(listed.statusCode, listed.body).toBe(200);
  expect(listed.json()).toContainEqual(
    expect.objectContaining({
      id: failed.id,
      orderId,
      kind: "cancellation",
      status: "failed",
      amount: 30,
      error: "Gateway timed out",
    }),
  );
  const home = (await asAdmin("GET", "/api/admin-home")).json();
  expect(home.refundsToRetry.count).toBeGreaterThanOrEqual(1);
  expect(home.refundsToRetry.oldest.map((r: { id: string }) => r.id)).toContain(failed.id);

  // The admin cancels again (the gateway is back): the refund goes through, once.
  await cancel(orderId);
  await cancel(orderId);
  expect(await refundOf(orderId)).toMatchObject({ status: "succeeded", error: null });
  expect(await creditNotes(orderId)).toHaveLength(1);
  expect((await gatewayRefunds(failed.id)).map((r) => r.amountCents)).toEqual([3000]);
  const after = (await asAdmin("GET", "/api/refunds")).json() as { id: string }[];
  expect(after.map((r) => r.id)).not.toContain(failed.id);
});

test("an admin's Retry (POST /api/refunds/{id}/retry) refunds a failed refund once, audited", async () => {
  const orderId = await paidOrder();
  await cancellingWith(failing(1)).cancel(orderId);
  const failed = await refundOf(orderId);
  expect(failed.status).toBe("failed");

  const retried = await asAdmin("POST", `/api/refunds/${failed.id}/retry`);
  expect(retried.statusCode, retried.body).toBe(200);
  expect(retried.json()).toMatchObject({ id: failed.id, status: "succeeded", error: null });
  const again = await asAdmin("POST", `/api/refunds/${failed.id}/retry`);
  expect(again.json().status).toBe("succeeded");
  expect(await gatewayRefunds(failed.id)).toHaveLength(1);
  expect(await creditNotes(orderId)).toHaveLength(1);
  const audit = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.action, "refund.retry"), eq(adminAuditLog.targetId, failed.id)));
  expect(audit).toHaveLength(1);

  const missing = await asAdmin("POST", `/api/refunds/${crypto.randomUUID()}/retry`);
  expect(missing.statusCode).toBe(404);
  expect(missing.json().message).toBe("Refund not found");
});

test("the retry job takes a failed refund once its wait is over, and a refund cut off before the gateway answered", async () => {
  // Failed: the job leaves it alone for 2 minutes, then refunds it with the same key.
  let clock = new Date();
  const failedOrder = await paidOrder();
  const { engine, cancel } = cancellingWith(failing(1), () => clock);
  await cancel(failedOrder);
  const failed = await refundOf(failedOrder);
  expect(failed.status).toBe("failed");
  expect(await engine.retryDue()).toBe(0);
  expect((await refundOf(failedOrder)).status).toBe("failed");
  clock = new Date(clock.getTime() + 3 * MINUTE);
  expect(await engine.retryDue()).toBeGreaterThanOrEqual(1);
  expect((await refundOf(failedOrder)).status).toBe("succeeded");
  expect(await gatewayRefunds(failed.id)).toHaveLength(1);
  expect(await creditNotes(failedOrder)).toHaveLength(1);

  // Stuck: the process stopped after the cancel committed, before the gateway answered (its
  // call never returns here); the refund stays pending, listed and retried 5 minutes on.
  const stuckOrder = await paidOrder();
  const hung = failing(0, () => new Promise(() => {}));
  void cancellingWith(hung).cancel(stuckOrder);
  await expect.poll(async () => (await refundOf(stuckOrder))?.status).toBe("pending");
  const stuck = await refundOf(stuckOrder);
  const later = new Date(Date.now() + 6 * MINUTE);
  const job = cancellingWith(createTestCardGateway(t.database.db), () => later).engine;
  expect((await job.toRetry()).map((r) => r.id)).toContain(stuck.id);
  await job.retryDue();
  expect(await refundOf(stuckOrder)).toMatchObject({ status: "succeeded" });
  expect(await gatewayRefunds(stuck.id)).toHaveLength(1);
  expect(await creditNotes(stuckOrder)).toHaveLength(1);
});
