import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpTrusted } from "../../../tests/support/accounts";
import { backorderStoreForTests } from "../../../tests/support/backorders";
import { insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { chargeTestCard, openPayment, payWithTestCard } from "../../../tests/support/payments";
import { backorderMessages } from "../../contract/backorders";
import { orderMessages, type Order } from "../../contract/orders";
import { createBackorderDateMail } from "../orders/backorder-mail";
import { orders } from "../orders/tables";
import { createExpireHolds } from "../workflows/expire-holds";
import { createInventory } from "./service";

// Backorders and promised dates (docs/inventory.md "Backorders"), through the API: a checkout
// that ships what is there and backorders the rest, the dates open supply promises, a receipt
// filling the queue first placed first served, a re-dated supply emailing the buyers, and
// shipping that waits for what is on backorder.

const { t, admin, h } = backorderStoreForTests("backorder-admin@example.com");
let home: string;
beforeAll(async () => {
  home = await h.homeLocation();
});

test("ship what is there: the rest waits for supply with its date, filled first placed first served", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 4, minimumOrder: 1 });
  await h.takesBackorders(part.id, null);
  const run = await h.supply(part.id, home, 10, "2027-01-12", "RUN-1");

  const first = await signUpTrusted(t);
  const cart = await h.inCart(first, part.id, 10);
  expect(cart.lines[0]).toMatchObject({
    problem: null,
    backorder: { qty: 6, expectedOn: "2027-01-12" },
  });
  expect(cart.canCheckout).toBe(true);

  // Without the buyer's choice, the specification's rule stands.
  const refused = await h.checkout(first);
  expect(refused.statusCode).toBe(422);
  expect(refused.json().message).toBe(orderMessages.lessThen(4));

  const placed = await h.checkout(first, "available");
  expect(placed.statusCode).toBe(201);
  const order1 = placed.json<{ order: Order }>().order;
  const placedMail = await waitForMail(t.app, first.email, /is placed/);
  expect(placedMail.text).toContain(
    `Not in stock yet, shipped as soon as they arrive: ${part.name}: 6 on backorder · expected 12 Jan 2027.`,
  );
  expect(await h.available(part.id)).toBe(0);
  let view = await h.shipmentsOf(order1._id);
  expect(view.shipComplete).toBe(false);
  expect(view.lines[0]).toMatchObject({
    ordered: 10,
    toShip: 4,
    backorder: { qty: 6, waiting: 6, cancelled: 0, promisedOn: "2027-01-12" },
  });

  // A second buyer: 4 of the run are not promised yet; more than that is refused.
  const second = await signUpTrusted(t);
  await h.inCart(second, part.id, 5);
  const tooMany = await h.checkout(second, "available");
  expect(tooMany.statusCode).toBe(422);
  expect(tooMany.json().message).toBe(orderMessages.lessThen(4));
  await h.inCart(second, part.id, 4);
  const placed2 = await h.checkout(second, "available");
  expect(placed2.statusCode).toBe(201);
  const order2 = placed2.json<{ order: Order }>().order;

  expect((await payWithTestCard(t.app, first, order1._id)).paid.statusCode).toBe(200);
  expect((await payWithTestCard(t.app, second, order2._id)).paid.statusCode).toBe(200);

  // What is on backorder does not ship; what is there does.
  const early = await h.as(admin, "POST", `/api/orders/${order1._id}/shipments`, {
    lines: [{ line: 1, qty: 5 }],
  });
  expect(early.statusCode).toBe(422);
  expect(early.json().message).toBe(backorderMessages.notYet(1, 6));
  const markShipped = await h.as(admin, "PATCH", `/api/orders/${order1._id}/status`, {
    status: "shipped",
  });
  expect(markShipped.statusCode).toBe(422);
  expect(markShipped.json().message).toBe(backorderMessages.stillWaiting(6));
  const shipped = await h.as(admin, "POST", `/api/orders/${order1._id}/shipments`, {
    lines: [{ line: 1, qty: 4 }],
  });
  expect(shipped.statusCode).toBe(201);

  // The run is late: both buyers get the new date by email (the job's next run), once.
  const later = await h.as(admin, "PATCH", `/api/incoming-supply/${run}`, {
    expectedOn: "2027-02-01",
  });
  expect(later.statusCode).toBe(200);
  view = await h.shipmentsOf(order2._id);
  expect(view.lines[0]!.backorder).toMatchObject({ waiting: 4, promisedOn: "2027-02-01" });
  const sent: { to: string; subject: string; text: string }[] = [];
  const dates = createBackorderDateMail(
    t.database.db,
    { sendIn: async (_tx, m) => void sent.push({ to: m.to, subject: m.subject, text: m.text }) },
    "http://store.test",
  );
  expect(await dates.sweep()).toBe(2);
  const mail = sent.find((m) => m.to === second.email)!;
  expect(mail.subject).toBe(
    `A new date for your backordered parts on PartsWorks order ${order2.number}`,
  );
  expect(mail.text).toContain(`${part.name}: 4 on backorder · expected 1 Feb 2027`);
  expect(mail.text).toContain("before: expected 12 Jan 2027");
  expect(sent.map((m) => m.to).sort()).toEqual([first.email, second.email].sort());
  expect(await dates.sweep()).toBe(0);

  // 7 arrive: the first order's 6, then 1 of the second's.
  const received = await h.as(admin, "POST", `/api/incoming-supply/${run}/receive`, { qty: 7 });
  expect(received.statusCode).toBe(200);
  expect(await h.available(part.id)).toBe(0);
  view = await h.shipmentsOf(order1._id);
  expect(view.lines[0]).toMatchObject({ toShip: 6, backorder: { waiting: 0 } });
  view = await h.shipmentsOf(order2._id);
  expect(view.lines[0]).toMatchObject({ toShip: 1, backorder: { waiting: 3 } });
  const rest = await h.as(admin, "POST", `/api/orders/${order1._id}/shipments`, {
    lines: [{ line: 1, qty: 6 }],
  });
  expect(rest.statusCode).toBe(201);
  expect((await h.shipmentsOf(order1._id)).status).toBe("shipped");

  // The second order cancelled: its allocated unit goes back on sale, its waiting ones leave the queue.
  const cancelled = await h.as(admin, "PATCH", `/api/orders/${order2._id}/status`, {
    status: "cancelled",
  });
  expect(cancelled.statusCode).toBe(200);
  expect(await h.available(part.id)).toBe(1);
  view = await h.shipmentsOf(order2._id);
  expect(view.lines[0]!.backorder).toMatchObject({ waiting: 0, cancelled: 3 });
});

test("ship complete: nothing ships while units wait; a lead time dates what no supply covers", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 2, minimumOrder: 1 });
  await h.takesBackorders(part.id, 14);
  const buyer = await signUpTrusted(t);
  const cart = await h.inCart(buyer, part.id, 5);
  const today = new Date();
  const due = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 14),
  );
  expect(cart.lines[0]!.backorder).toEqual({ qty: 3, expectedOn: due.toISOString().slice(0, 10) });

  const placed = await h.checkout(buyer, "complete");
  expect(placed.statusCode).toBe(201);
  const order = placed.json<{ order: Order }>().order;
  expect((await payWithTestCard(t.app, buyer, order._id)).paid.statusCode).toBe(200);
  const view = await h.shipmentsOf(order._id);
  expect(view.shipComplete).toBe(true);
  const refused = await h.as(admin, "POST", `/api/orders/${order._id}/shipments`, {
    lines: [{ line: 1, qty: 2 }],
  });
  expect(refused.statusCode).toBe(422);
  expect(refused.json().message).toBe(backorderMessages.shipsComplete(3));

  // A count finds 3 more: they go to the waiting line, and the whole order ships.
  const counted = await h.as(admin, "PUT", `/api/locations/${home}/stock/${part.id}`, {
    onHand: 5,
    reorderLevel: null,
  });
  expect(counted.statusCode).toBe(200);
  const shipped = await h.as(admin, "PATCH", `/api/orders/${order._id}/status`, {
    status: "shipped",
  });
  expect(shipped.statusCode).toBe(200);
  expect(await h.available(part.id)).toBe(0);
});

test("a part that takes no backorders is refused as the specification says", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 3, minimumOrder: 1 });
  const buyer = await signUpTrusted(t);
  const cart = await h.inCart(buyer, part.id, 5);
  expect(cart.lines[0]).toMatchObject({ problem: orderMessages.lessThen(3), backorder: null });
  const refused = await h.checkout(buyer, "available");
  expect(refused.statusCode).toBe(422);
  expect(refused.json().message).toBe(orderMessages.lessThen(3));
});

test("a backordered order paid after its hold ran out takes its units again; what waited waits again, dated", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 4, minimumOrder: 1 });
  await h.takesBackorders(part.id, 30);
  const buyer = await signUpTrusted(t);
  await h.inCart(buyer, part.id, 10);
  const placed = await h.checkout(buyer, "available");
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json<{ order: Order }>().order;
  const intent = await openPayment(t.app, buyer, order._id);
  const charged = await chargeTestCard(t.app, buyer, intent.json().clientSecret);

  // The hold runs out before the store hears of the payment: the 4 go back on sale, the 6
  // waiting are cancelled with the order.
  await t.database.db
    .update(orders)
    .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
    .where(eq(orders.id, order._id));
  const expireHolds = createExpireHolds(createInventory(t.database.db));
  await expect
    .poll(async () => {
      await expireHolds();
      return (await h.shipmentsOf(order._id)).lines[0]?.backorder?.cancelled;
    })
    .toBe(6);
  expect(await h.available(part.id)).toBe(4);

  // The payment arrives: the order is paid as it was placed, 4 from the shelf and 6 waiting.
  const paid = await h.as(buyer, "PATCH", `/api/orders/${order._id}`, {
    transactionId: charged.json().transactionId,
  });
  expect(paid.statusCode, paid.body).toBe(200);
  expect(await h.available(part.id)).toBe(0);
  const view = await h.shipmentsOf(order._id);
  expect(view.lines[0]).toMatchObject({
    ordered: 10,
    toShip: 4,
    backorder: { qty: 6, waiting: 6, cancelled: 0 },
  });
  expect(view.lines[0]!.backorder!.promisedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});
