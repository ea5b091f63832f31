import { sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpTrusted, type TestAccount } from "../../../tests/support/accounts";
import { backorderStoreForTests } from "../../../tests/support/backorders";
import { insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { payWithTestCard } from "../../../tests/support/payments";
import { backorderMessages, type BackorderCancelled } from "../../contract/backorders";
import type { Order } from "../../contract/orders";

// Cancelling a line's units on backorder (docs/inventory.md "Cancelling backordered units"),
// through the API: by its buyer or an admin, refunded with their tax and a credit note; the
// queue moves up; the order ships, is shipped, or is cancelled whole when nothing else is left.

const { t, admin, h } = backorderStoreForTests("cancel-bo-admin@example.com");
let home: string;
beforeAll(async () => {
  home = await h.homeLocation();
});

const cancelLine = (who: { cookie: string }, orderId: string, line: number) =>
  h.as(who, "DELETE", `/api/orders/${orderId}/backorders/${line}`);

/** A paid order of `qty` of the product (what the shelf lacks on backorder). */
async function paidOrder(who: TestAccount, lines: [string, number][]): Promise<Order> {
  for (const [productId, qty] of lines) await h.inCart(who, productId, qty);
  const placed = await h.checkout(who, "available");
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json<{ order: Order }>().order;
  expect((await payWithTestCard(t.app, who, order._id)).paid.statusCode).toBe(200);
  return order;
}

async function refundsOf(orderId: string) {
  const rows = await t.database.db.execute<{
    kind: string;
    line: number | null;
    units: number | null;
    amount_cents: number;
    status: string;
    credit_note_id: string | null;
  }>(sql`select kind, line, units, amount_cents, status, credit_note_id from refunds
          where order_id = ${orderId} order by created_at`);
  return rows.rows;
}

test("the buyer cancels a paid line's waiting units: refunded with their tax, the queue moves up, the rest ships", async () => {
  const part = await insertProduct(t.database.db, {
    availableQuantity: 4,
    minimumOrder: 1,
    priceCents: 1250,
  });
  await h.takesBackorders(part.id);
  await h.supply(part.id, home, 6, "2027-01-12", "RUN-C1");
  const buyer = await signUpTrusted(t);

  // Unpaid, it is refused: its buyer deletes it instead.
  await h.inCart(buyer, part.id, 10);
  const unpaid = (await h.checkout(buyer, "available")).json<{ order: Order }>().order;
  const early = await cancelLine(buyer, unpaid._id, 1);
  expect(early.statusCode).toBe(422);
  expect(early.json().message).toBe(backorderMessages.cancelUnpaid);
  expect((await payWithTestCard(t.app, buyer, unpaid._id)).paid.statusCode).toBe(200);
  const order = unpaid;

  // Nobody else's to cancel.
  const stranger = await signUpTrusted(t);
  expect((await cancelLine(stranger, order._id, 1)).statusCode).toBe(404);
  const noLine = await cancelLine(buyer, order._id, 2);
  expect(noLine.statusCode).toBe(422);
  expect(noLine.json().message).toBe(backorderMessages.noSuchLine(2));

  // The run's 6 are all promised: a second buyer cannot have them.
  expect((await h.inCart(stranger, part.id, 6)).lines[0]!.backorder).toBeNull();

  const res = await cancelLine(buyer, order._id, 1);
  expect(res.statusCode, res.body).toBe(200);
  const done = res.json<BackorderCancelled>();
  // 6 × $12.50, and their share of the line's tax (the 10 units' tax × 6 / 10).
  const lineTax = order.items[0]!.tax ?? 0;
  expect(done).toMatchObject({
    line: 1,
    units: 6,
    refundStatus: "succeeded",
    orderCancelled: false,
    orderShipped: false,
  });
  expect(done.refunded).toBeCloseTo(75 + Math.round(lineTax * 60) / 100, 2);
  const [refund] = await refundsOf(order._id);
  expect(refund).toMatchObject({ kind: "backorder", line: 1, units: 6, status: "succeeded" });
  expect(refund!.credit_note_id).not.toBeNull();

  const mail = await waitForMail(t.app, buyer.email, /Backordered parts cancelled/);
  expect(mail.subject).toBe(`Backordered parts cancelled on PartsWorks order ${order.number}`);
  expect(mail.text).toContain(
    `As you asked, we cancelled the parts of your order ${order.number} that were waiting on backorder: 6 × ${part.name}.`,
  );
  expect(mail.text).toContain("The rest of your order ships as usual.");

  const view = await h.shipmentsOf(order._id);
  expect(view.lines[0]).toMatchObject({
    toShip: 4,
    backorder: { waiting: 0, cancelled: 6 },
  });
  // Asked again: nothing waits.
  const again = await cancelLine(buyer, order._id, 1);
  expect(again.statusCode).toBe(422);
  expect(again.json().message).toBe(backorderMessages.nothingWaiting(1));
  // The run's units are free again for the next buyer.
  const cart = await h.inCart(stranger, part.id, 6);
  expect(cart.lines[0]!.backorder).toEqual({ qty: 6, expectedOn: "2027-01-12" });

  // The 4 on the shelf ship, and the order is shipped.
  const shipped = await h.as(admin, "POST", `/api/orders/${order._id}/shipments`, {
    lines: [{ line: 1, qty: 4 }],
  });
  expect(shipped.statusCode, shipped.body).toBe(201);
  expect((await h.shipmentsOf(order._id)).status).toBe("shipped");
});

test("an admin cancels the units an order was waiting for alone: the whole order is cancelled and refunded, shipping included", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 0, minimumOrder: 1 });
  await h.takesBackorders(part.id, 14);
  const buyer = await signUpTrusted(t);
  const order = await paidOrder(buyer, [[part.id, 3]]);

  const res = await cancelLine(admin, order._id, 1);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<BackorderCancelled>()).toMatchObject({
    units: 3,
    refunded: order.total,
    orderCancelled: true,
  });
  const after = await h.as(buyer, "GET", `/api/orders/${order._id}`);
  expect(after.json<Order>().status).toBe("cancelled");
  expect((await refundsOf(order._id)).map((r) => [r.kind, r.status])).toEqual([
    ["cancellation", "succeeded"],
  ]);
  const mail = await waitForMail(t.app, buyer.email, /Backordered parts cancelled/);
  expect(mail.text).toContain(`We cancelled the parts of your order ${order.number}`);
  expect(mail.text).toContain(
    "Nothing else of the order was left to ship, so the whole order is cancelled.",
  );
  const audit = await t.database.db.execute<{ action: string }>(
    sql`select action from admin_audit_log where target_id = ${order._id}`,
  );
  expect(audit.rows.map((r) => r.action)).toContain("order.cancel-backorder");
});

test("the rest shipped already: cancelling what waits makes the order shipped", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 2, minimumOrder: 1 });
  await h.takesBackorders(part.id, 14);
  const buyer = await signUpTrusted(t);
  const order = await paidOrder(buyer, [[part.id, 5]]);
  const parcel = await h.as(admin, "POST", `/api/orders/${order._id}/shipments`, {
    lines: [{ line: 1, qty: 2 }],
  });
  expect(parcel.statusCode, parcel.body).toBe(201);

  const res = await cancelLine(buyer, order._id, 1);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<BackorderCancelled>()).toMatchObject({ units: 3, orderShipped: true });
  expect((await h.shipmentsOf(order._id)).status).toBe("shipped");
  const shipped = await cancelLine(buyer, order._id, 1);
  expect(shipped.statusCode).toBe(422);
  expect(shipped.json().message).toBe(backorderMessages.cancelNotNow("shipped"));
});

test("a line's backorder refunded, then the order cancelled: together they refund the total once", async () => {
  const onShelf = await insertProduct(t.database.db, { availableQuantity: 10, minimumOrder: 1 });
  const waits = await insertProduct(t.database.db, { availableQuantity: 1, minimumOrder: 1 });
  await h.takesBackorders(waits.id, 7);
  const buyer = await signUpTrusted(t);
  const order = await paidOrder(buyer, [
    [onShelf.id, 3],
    [waits.id, 4],
  ]);
  const waitingLine = order.items.findIndex((i) => i.productId === waits.id) + 1;
  expect((await cancelLine(buyer, order._id, waitingLine)).statusCode).toBe(200);

  const cancelled = await h.as(admin, "PATCH", `/api/orders/${order._id}/status`, {
    status: "cancelled",
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  const refunds = await refundsOf(order._id);
  expect(refunds.map((r) => [r.kind, r.status])).toEqual([
    ["backorder", "succeeded"],
    ["cancellation", "succeeded"],
  ]);
  expect(refunds.reduce((n, r) => n + r.amount_cents, 0)).toBe(Math.round(order.total * 100));
  // Every unit is back: the shelf's on sale again, the one allocated too.
  expect(await h.available(onShelf.id)).toBe(10);
  expect(await h.available(waits.id)).toBe(1);
});

test("units an order gives back go to the part's waiting backorders first, not on sale", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 2, minimumOrder: 1 });
  await h.takesBackorders(part.id, 14);
  const first = await signUpTrusted(t);
  await h.inCart(first, part.id, 2);
  const holding = (await h.checkout(first, "available")).json<{ order: Order }>().order;
  const second = await paidOrder(await signUpTrusted(t), [[part.id, 3]]);
  expect((await h.shipmentsOf(second._id)).lines[0]!.backorder).toMatchObject({ waiting: 3 });

  // The first buyer deletes their unpaid order: its 2 units fill the second's backorder.
  expect((await h.as(first, "DELETE", `/api/orders/${holding._id}`)).statusCode).toBe(200);
  expect(await h.available(part.id)).toBe(0);
  expect((await h.shipmentsOf(second._id)).lines[0]).toMatchObject({
    toShip: 2,
    backorder: { waiting: 1, cancelled: 0 },
  });
});
