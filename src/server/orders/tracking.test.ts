import { and, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { orderOfNewPart } from "../../../tests/support/part-orders";
import { storeForTests } from "../../../tests/support/store";
import { payWithTestCard } from "../../../tests/support/payments";
import { trackingMessages } from "../../contract/shipping-carriers";
import { adminAuditLog } from "../audit/tables";
import { orders } from "./tables";
import { HttpError } from "../errors";
import { createInventory } from "../inventory/service";
import { createOrderService } from "./service";
import { createOrderStatus } from "../workflows/order-status";
import { createRefunds } from "../workflows/refund";
import { createTestCardGateway } from "../payments/test-card-gateway";
import { loadConfig } from "../config";

// Shipment tracking (docs/shipments.md): PATCH /api/orders/:id/status with a carrier and
// a tracking number. The emails are tested in src/server/mail/order-mail.test.ts.

let customer: TestAccount;

/** A paid order of a new customer (one each: placing orders is rate limited per account). */
async function paidOrder(): Promise<string> {
  customer = await signUp(t.app);
  const { res: placed } = await orderOfNewPart(t, customer, 1, {
    priceCents: 1500,
    availableQuantity: 50,
  });
  const orderId = placed.json().order._id as string;
  const { paid } = await payWithTestCard(t.app, customer, orderId);
  expect(paid.json().status).toBe("paid");
  return orderId;
}

const changeStatus = (id: string, payload: Record<string, unknown>) =>
  call(admin, "PATCH", `/api/orders/${id}/status`, payload);

const rowOf = async (id: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

const { t, call, admin } = storeForTests({
  admin: "tracking-boss@example.com",
  shipsToTestAddress: true,
});

test("shipped with UPS and a tracking number: stored normalised, linked, shown to the customer, in the audit log", async () => {
  const id = await paidOrder();
  const res = await changeStatus(id, {
    status: "shipped",
    carrier: "ups",
    trackingNumber: "  1z 999aa1-0123456784 ",
  });
  expect(res.statusCode).toBe(200);
  const url = "https://www.ups.com/track?tracknum=1Z999AA1-0123456784";
  expect(res.json()).toMatchObject({
    status: "shipped",
    carrier: "ups",
    trackingNumber: "1Z999AA1-0123456784",
    trackingUrl: url,
  });
  const row = await rowOf(id);
  expect([row.carrier, row.trackingNumber]).toEqual(["ups", "1Z999AA1-0123456784"]);

  // The customer's order, and their list, carry it; so does the admin's detail.
  const mine = await call(customer, "GET", `/api/orders/${id}`);
  expect(mine.json()).toMatchObject({ carrier: "ups", trackingUrl: url });
  const list = await call(customer, "GET", "/api/orders");
  expect(list.json().find((o: { _id: string }) => o._id === id).trackingUrl).toBe(url);
  const detail = await call(admin, "GET", `/api/orders/${id}/detail`);
  expect(detail.json()).toMatchObject({ carrier: "ups", trackingNumber: "1Z999AA1-0123456784" });

  const [audit] = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetId, id), eq(adminAuditLog.action, "order.ship")));
  expect(audit!.summary).toBe(
    `Shipped the order of ${customer.email} with UPS, tracking 1Z999AA1-0123456784`,
  );

  // Asked again with the same tracking: the same answer; with another: refused, nothing changes.
  expect(
    (
      await changeStatus(id, {
        status: "shipped",
        carrier: "ups",
        trackingNumber: "1Z999AA1-0123456784",
      })
    ).statusCode,
  ).toBe(200);
  const other = await changeStatus(id, {
    status: "shipped",
    carrier: "dhl",
    trackingNumber: "JD0141",
  });
  expect(other.statusCode).toBe(422);
  expect(other.json().message).toBe(
    "This order has already shipped; its tracking cannot be changed",
  );
  expect((await rowOf(id)).carrier).toBe("ups");
});

test("'other' carrier: the number is kept, there is no link", async () => {
  const id = await paidOrder();
  const res = await changeStatus(id, {
    status: "shipped",
    carrier: "other",
    trackingNumber: "van 12",
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    carrier: "other",
    trackingNumber: "VAN12",
    trackingUrl: null,
  });
});

test("shipped without tracking works as before: no carrier, no number, no link", async () => {
  const id = await paidOrder();
  const res = await changeStatus(id, { status: "shipped" });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    status: "shipped",
    carrier: null,
    trackingNumber: null,
    trackingUrl: null,
  });
  const [audit] = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetId, id), eq(adminAuditLog.action, "order.ship")));
  expect(audit!.summary).toBe(`Shipped the order of ${customer.email} without tracking`);
  // A later "shipped" without tracking is the same answer.
  expect((await changeStatus(id, { status: "shipped" })).statusCode).toBe(200);
});

test.each([
  [{ carrier: "ups" }, trackingMessages.both],
  [{ trackingNumber: "1Z999AA1" }, trackingMessages.both],
  [{ carrier: "royal-mail", trackingNumber: "1Z999AA1" }, trackingMessages.carrier],
  [{ carrier: "ups", trackingNumber: "1Z" }, trackingMessages.number],
  [{ carrier: "ups", trackingNumber: "1Z/999<script>" }, trackingMessages.number],
  [{ carrier: "ups", trackingNumber: "9".repeat(41) }, trackingMessages.number],
  [{ carrier: "ups", trackingNumber: 12345 }, trackingMessages.number],
])("shipping with %j is refused (400), and the order stays paid", async (extra, message) => {
  const id = await paidOrder();
  const res = await changeStatus(id, { status: "shipped", ...extra });
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toContain(message);
  const row = await rowOf(id);
  expect([row.status, row.carrier, row.trackingNumber]).toEqual(["paid", null, null]);
});

test("cancelling with a carrier or tracking number is refused; the order is not cancelled", async () => {
  const id = await paidOrder();
  const res = await changeStatus(id, {
    status: "cancelled",
    carrier: "ups",
    trackingNumber: "1Z999AA1",
  });
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toContain(trackingMessages.notWhenCancelling);
  expect((await rowOf(id)).status).toBe("paid");

  // The service refuses it too, whoever calls it.
  const service = createOrderStatus({
    inventory: createInventory(t.database.db),
    refunds: createRefunds(t.database.db, createTestCardGateway(t.database.db), {
      seller: loadConfig({}).seller,
      publicUrl: "http://localhost",
      log: { error: () => {} },
    }),
    payments: { cancelIntentsOf: async () => {} },
    orders: createOrderService(t.database.db, createInventory(t.database.db), { currency: "USD" }),
  });
  const refused = await service
    .changeStatus(id, "cancelled", undefined, {
      carrier: "ups",
      trackingNumber: "1Z999AA1",
    })
    .catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(HttpError);
  expect((refused as HttpError).statusCode).toBe(400);
  expect((await rowOf(id)).status).toBe("paid");
});

test("the database holds both or neither", async () => {
  const id = await paidOrder();
  await expect(
    t.database.db.update(orders).set({ carrier: "ups" }).where(eq(orders.id, id)),
  ).rejects.toThrow();
});
