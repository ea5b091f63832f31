import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { expect, test } from "vitest";
import { messagesFor, waitForMail } from "../../../tests/support/mailbox";
import { pdfText } from "../../../tests/support/pdf-text";
import { creditNotesOf, TEST_SELLER } from "../../../tests/support/invoices";
import {
  paidOrderOfNewPart,
  shipAsAdmin,
  testCardRefundsOf,
  testCardRefundsOfIntent,
} from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { returnMessages } from "../../contract/returns";
import { adminAuditLog } from "../audit/tables";
import { orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { refunds } from "./tables";
import { shipments } from "../shipments/tables";
import { testCardRefunds } from "../payments/tables";
import { createInventory } from "../inventory/service";
import type { PaymentGateway } from "../payments/gateway";
import { createStripeGateway } from "../payments/stripe-gateway";
import { createTestCardGateway } from "../payments/test-card-gateway";
import { createReturnService } from "./service";
import { createReceiveReturn } from "../workflows/receive-return";
import { createRefunds } from "../workflows/refund";

/** Returns, refunds and credit notes (docs/returns.md) through the API and the service. */

const DAY = 24 * 60 * 60 * 1000;
const silent = { error: () => {} };

const { t, call, admin, customer, other } = storeForTests({
  admin: "returns-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "returns-customer@example.com", other: "returns-other@example.com" },
  env: { RETURN_WINDOW_DAYS: "30" },
});

const stockOf = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0]!.availableQuantity;

/** A $20.00 part, 50 in stock; the customer buys `qty`, pays with the test card, it ships. */
async function shippedOrder(qty = 3, ship = true) {
  const bought = await paidOrderOfNewPart(t, customer, qty, {
    priceCents: 2000,
    availableQuantity: 50,
  });
  if (ship) await shipAsAdmin(t, admin, bought.orderId);
  return bought;
}

const ask = (orderId: string, body: object, who = customer) =>
  call(who, "POST", `/api/orders/${orderId}/returns`, body);

test("did not fit: request, approve (emailed), receive: stock back, refunded once, credit note, fitment report", async () => {
  const { orderId, part } = await shippedOrder(3);
  expect(await stockOf(part.id)).toBe(47);
  const asked = await ask(orderId, {
    lines: [{ line: 1, qty: 2 }],
    reason: "did_not_fit",
    vehicle: "2012 VW Golf 1.6 TDI",
    note: "Bolt holes do not line up",
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const ret = asked.json();
  expect(ret).toMatchObject({ status: "requested", amount: 40, vehicle: "2012 VW Golf 1.6 TDI" });

  // Another customer, and admins, cannot ask for it; the other customer does not see it.
  expect(
    (await ask(orderId, { lines: [{ line: 1, qty: 1 }], reason: "damaged" }, other)).statusCode,
  ).toBe(404);
  expect((await call(other, "GET", `/api/orders/${orderId}/returns`)).statusCode).toBe(404);

  const approved = await call(admin, "POST", `/api/returns/${ret.id}/decision`, {
    decision: "approve",
  });
  expect(approved.statusCode, approved.body).toBe(200);
  expect(approved.json().status).toBe("approved");
  await waitForMail(t.app, customer.email, /return .* is approved/i);

  const received = await call(admin, "POST", `/api/returns/${ret.id}/receive`);
  expect(received.statusCode, received.body).toBe(200);
  expect(received.json()).toMatchObject({ status: "refunded", refundError: null });
  expect(received.json().creditNote.number).toMatch(/^CN-\d{4}-\d{6}$/);
  expect(await stockOf(part.id)).toBe(49);
  // The customer is told, with the credit note attached.
  const refundedMail = await waitForMail(t.app, customer.email, /return .* is refunded/i);
  expect(refundedMail.text).toContain("We refunded $40.00 to the card you paid with.");
  expect(refundedMail.text).toContain(received.json().creditNote.number);
  expect(refundedMail.attachments.map((a) => a.filename)).toEqual([
    `${received.json().creditNote.number}.pdf`,
  ]);

  // Received again: nothing moves, nothing is refunded twice.
  expect((await call(admin, "POST", `/api/returns/${ret.id}/receive`)).statusCode).toBe(200);
  expect(await stockOf(part.id)).toBe(49);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const gatewayRefunds = await testCardRefundsOfIntent(t.database.db, order!.transactionId!);
  expect(gatewayRefunds.map((r) => r.amountCents)).toEqual([4000]);
  const refundMails = (await messagesFor(t.app, customer.email)).filter((m) =>
    /is refunded/.test(m.subject),
  );
  expect(refundMails).toHaveLength(1);

  // The customer sees the credit note and downloads it.
  const notes = (await call(customer, "GET", `/api/orders/${orderId}/credit-notes`)).json();
  expect(notes).toHaveLength(1);
  expect(notes[0].total).toBe(-40);
  const pdf = await call(customer, "GET", notes[0].pdfUrl);
  expect(pdf.statusCode).toBe(200);
  const textOf = (await pdfText(new Uint8Array(pdf.rawPayload))).text;
  expect(textOf).toContain("CREDIT NOTE");
  expect(textOf).toContain(notes[0].number);
  expect(textOf).toMatch(/INV-\d{4}-\d{6}/);
  expect((await call(other, "GET", notes[0].pdfUrl)).statusCode).toBe(404);

  const report = (await call(admin, "GET", "/api/returns/fitment-report")).json();
  expect(report.find((p: { productId: string }) => p.productId === part.id)).toMatchObject({
    returns: 1,
    units: 2,
    vehicles: [{ vehicle: "2012 VW Golf 1.6 TDI", returns: 1 }],
  });

  const audit = await t.database.db
    .select({ action: adminAuditLog.action })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, ret.id));
  expect(audit.map((a) => a.action).sort()).toEqual(["return.approve", "return.receive"]);
});

test("quantities never exceed what was bought minus what is being returned; refused returns free them", async () => {
  const { orderId } = await shippedOrder(3);
  const tooMany = await ask(orderId, { lines: [{ line: 1, qty: 4 }], reason: "damaged" });
  expect(tooMany.statusCode).toBe(422);
  expect(tooMany.json().message).toBe(returnMessages.tooMany(1, 3));
  expect((await ask(orderId, { lines: [{ line: 2, qty: 1 }], reason: "damaged" })).statusCode).toBe(
    422,
  );
  const first = await ask(orderId, { lines: [{ line: 1, qty: 2 }], reason: "wrong_part" });
  expect(first.statusCode).toBe(201);
  const again = await ask(orderId, { lines: [{ line: 1, qty: 2 }], reason: "damaged" });
  expect(again.json().message).toBe(returnMessages.tooMany(1, 1));
  // Two at once for the last unit: one wins.
  const both = await Promise.all([
    ask(orderId, { lines: [{ line: 1, qty: 1 }], reason: "damaged" }),
    ask(orderId, { lines: [{ line: 1, qty: 1 }], reason: "damaged" }),
  ]);
  expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
  // Refusing needs a message; a refused return's units can be asked for again.
  const noWhy = await call(admin, "POST", `/api/returns/${first.json().id}/decision`, {
    decision: "refuse",
  });
  expect(noWhy.statusCode).toBe(400);
  const refused = await call(admin, "POST", `/api/returns/${first.json().id}/decision`, {
    decision: "refuse",
    message: "The part was fitted and used",
  });
  expect(refused.json()).toMatchObject({
    status: "refused",
    adminMessage: "The part was fitted and used",
  });
  await waitForMail(t.app, customer.email, /was refused/i);
  expect((await ask(orderId, { lines: [{ line: 1, qty: 2 }], reason: "damaged" })).statusCode).toBe(
    201,
  );
  // A refused return cannot be received.
  expect((await call(admin, "POST", `/api/returns/${first.json().id}/receive`)).statusCode).toBe(
    409,
  );
  const returnable = (await call(customer, "GET", `/api/orders/${orderId}/returnable`)).json();
  expect(returnable.lines[0]).toMatchObject({ bought: 3, returnable: 0 });
});

test("only shipped orders, within the return window", async () => {
  const { orderId: paidOnly } = await shippedOrder(1, false);
  const notShipped = await ask(paidOnly, { lines: [{ line: 1, qty: 1 }], reason: "damaged" });
  expect(notShipped.statusCode).toBe(422);
  expect(notShipped.json().message).toBe(returnMessages.notShipped);

  const { orderId } = await shippedOrder(1);
  // The window counts from the line's shipment (docs/shipments.md).
  await t.database.db
    .update(shipments)
    .set({ shippedAt: new Date(Date.now() - 31 * DAY) })
    .where(eq(shipments.orderId, orderId));
  const late = await ask(orderId, { lines: [{ line: 1, qty: 1 }], reason: "damaged" });
  expect(late.statusCode).toBe(422);
  expect(late.json().message).toBe(returnMessages.windowClosed(30));
  // The window counts from the line's shipment (docs/shipments.md).
  await t.database.db
    .update(shipments)
    .set({ shippedAt: new Date(Date.now() - 29 * DAY) })
    .where(eq(shipments.orderId, orderId));
  expect((await ask(orderId, { lines: [{ line: 1, qty: 1 }], reason: "damaged" })).statusCode).toBe(
    201,
  );
  expect((await ask(orderId, { lines: [], reason: "damaged" })).statusCode).toBe(400);
  expect(
    (await ask(orderId, { lines: [{ line: 1, qty: 1 }], reason: "exchange" })).statusCode,
  ).toBe(400);
});

/** A return approved through the API, for the service tests below. */
async function approvedReturn(qty = 1) {
  const { orderId, part } = await shippedOrder(2);
  const asked = await ask(orderId, { lines: [{ line: 1, qty }], reason: "no_longer_needed" });
  const id = asked.json().id as string;
  await call(admin, "POST", `/api/returns/${id}/decision`, { decision: "approve" });
  return { id, orderId, part };
}

const actor = { id: "admin-test", email: "returns-admin@example.com" };

/** The returns service with the receive-return workflow and the refund engine over `gateway`. */
function returnsWith(gateway: PaymentGateway) {
  const opts = { windowDays: 30, seller: TEST_SELLER, publicUrl: "http://localhost", log: silent };
  const refunds = createRefunds(t.database.db, gateway, opts);
  return {
    ...createReturnService(t.database.db, opts),
    ...createReceiveReturn(t.database.db, createInventory(t.database.db), refunds),
    runRefund: refunds.run,
  };
}

test("a gateway error leaves the return 'refund failed' with nothing half-written; the retry refunds once", async () => {
  const real = createTestCardGateway(t.database.db);
  let failures = 1;
  const flaky: PaymentGateway = {
    ...real,
    refund: async (input) => {
      if (failures-- > 0) throw new Error("Gateway timed out");
      return real.refund(input);
    },
  };
  const service = returnsWith(flaky);
  const { id, orderId, part } = await approvedReturn();
  const failed = await service.receive(id, actor);
  expect(failed).toMatchObject({
    status: "refund_failed",
    refundError: "Gateway timed out",
    creditNote: null,
  });
  expect(await stockOf(part.id)).toBe(49); // the parts are back either way
  const noNote = await creditNotesOf(t.database.db, orderId);
  expect(noNote).toHaveLength(0);
  // The customer sees it too.
  const seen = (await call(customer, "GET", `/api/orders/${orderId}/returns`)).json();
  expect(seen[0].status).toBe("refund_failed");

  const retried = await service.retryRefund(id, actor);
  expect(retried.status).toBe("refunded");
  await expect(service.retryRefund(id, actor)).rejects.toMatchObject({ statusCode: 409 });
  const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.returnId, id));
  const gatewayRows = await testCardRefundsOf(t.database.db, refund!.id);
  expect(gatewayRows).toHaveLength(1);
});

test("a refund confirmed twice at once refunds once and issues one credit note", async () => {
  const gateway = createTestCardGateway(t.database.db);
  let failures = 1;
  const service = returnsWith({
    ...gateway,
    refund: async (i) => {
      if (failures-- > 0) throw new Error("down");
      return gateway.refund(i);
    },
  });
  const { id, orderId } = await approvedReturn();
  await service.receive(id, actor);
  const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.returnId, id));
  await Promise.all([
    service.runRefund(refund!.id),
    service.runRefund(refund!.id),
    service.runRefund(refund!.id),
  ]);
  const notes = await creditNotesOf(t.database.db, orderId);
  expect(notes).toHaveLength(1);
  const rows = await testCardRefundsOf(t.database.db, refund!.id);
  expect(rows).toHaveLength(1);
});

test("an order on account gets a credit note and no gateway refund", async () => {
  let called = 0;
  const gateway = createTestCardGateway(t.database.db);
  const service = returnsWith({ ...gateway, refund: async (i) => (called++, gateway.refund(i)) });
  const { orderId } = await shippedOrder(2);
  await t.database.db.update(orders).set({ paidWith: "invoice" }).where(eq(orders.id, orderId));
  const id = (await ask(orderId, { lines: [{ line: 1, qty: 2 }], reason: "damaged" })).json().id;
  await service.decide(id, { decision: "approve" }, actor);
  const done = await service.receive(id, actor);
  expect(done.status).toBe("refunded");
  expect(done.creditNote).not.toBeNull();
  expect(called).toBe(0);
  const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.returnId, id));
  expect(refund).toMatchObject({ gateway: "invoice", status: "succeeded", gatewayRefundId: null });
});

test("cancelling a paid order refunds it in full with a credit note; its stock comes back", async () => {
  const { orderId, part } = await shippedOrder(2, false);
  expect(await stockOf(part.id)).toBe(48);
  const res = await call(admin, "PATCH", `/api/orders/${orderId}/status`, { status: "cancelled" });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().status).toBe("cancelled");
  expect(await stockOf(part.id)).toBe(50);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const gatewayRows = await testCardRefundsOfIntent(t.database.db, order!.transactionId!);
  expect(gatewayRows.map((r) => r.amountCents)).toEqual([order!.totalCents]);
  const notes = (await call(customer, "GET", `/api/orders/${orderId}/credit-notes`)).json();
  expect(notes.map((n: { total: number }) => n.total)).toEqual([-order!.totalCents / 100]);
  // A shipped order cannot be cancelled (it is returned instead).
  const { orderId: shipped } = await shippedOrder(1);
  expect(
    (await call(admin, "PATCH", `/api/orders/${shipped}/status`, { status: "cancelled" }))
      .statusCode,
  ).toBe(422);
});

test("admin list: status filter and paging with X-Total-Count", async () => {
  const all = await call(admin, "GET", "/api/returns?limit=2");
  expect(all.statusCode).toBe(200);
  expect(all.json()).toHaveLength(2);
  expect(Number(all.headers["x-total-count"])).toBeGreaterThan(2);
  const refused = (await call(admin, "GET", "/api/returns?status=refused&limit=50")).json();
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((r: { status: string }) => r.status === "refused")).toBe(true);
  expect((await call(admin, "GET", "/api/returns?status=lost")).statusCode).toBe(400);
});

test("the test-card gateway refuses to refund more than was paid, or an unpaid intent", async () => {
  const gateway = createTestCardGateway(t.database.db);
  const { orderId } = await shippedOrder(1, false);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const intentId = order!.transactionId!;
  await gateway.refund({ intentId, amountCents: 1000, idempotencyKey: `a-${orderId}` });
  await expect(
    gateway.refund({
      intentId,
      amountCents: order!.totalCents - 999,
      idempotencyKey: `b-${orderId}`,
    }),
  ).rejects.toMatchObject({ statusCode: 409 });
  const same = await gateway.refund({
    intentId,
    amountCents: 1000,
    idempotencyKey: `a-${orderId}`,
  });
  const rows = await t.database.db
    .select()
    .from(testCardRefunds)
    .where(eq(testCardRefunds.intentId, intentId));
  expect(rows.map((r) => r.id)).toEqual([same.id]);
  await expect(
    gateway.refund({ intentId: "pi_test_nothing", amountCents: 1, idempotencyKey: `c-${orderId}` }),
  ).rejects.toMatchObject({ statusCode: 404 });
});

test("the Stripe adapter refunds the intent's amount with our idempotency key", async () => {
  const calls: unknown[] = [];
  const client = {
    refunds: {
      create: async (params: unknown, options: unknown) => {
        calls.push([params, options]);
        return { id: "re_123", status: "succeeded", amount: 4000 };
      },
    },
  } as unknown as Stripe;
  const done = await createStripeGateway(client).refund({
    intentId: "pi_abc",
    amountCents: 4000,
    idempotencyKey: "refund-1",
  });
  expect(done).toEqual({ id: "re_123", status: "succeeded", amountCents: 4000 });
  expect(calls).toEqual([
    [{ payment_intent: "pi_abc", amount: 4000 }, { idempotencyKey: "refund-1" }],
  ]);
  const refusing = {
    refunds: {
      create: async () => {
        throw Object.assign(new Error("Refund amount is greater than unrefunded amount"), {
          type: "StripeInvalidRequestError",
        });
      },
    },
  } as unknown as Stripe;
  await expect(
    createStripeGateway(refusing).refund({
      intentId: "pi_abc",
      amountCents: 1,
      idempotencyKey: "k",
    }),
  ).rejects.toThrow(/greater than/);
});
