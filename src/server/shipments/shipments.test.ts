import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { auditRowsOf } from "../../../tests/support/audit";
import { waitForMail } from "../../../tests/support/mailbox";
import { storeForTests } from "../../../tests/support/store";
import { returnMessages } from "../../contract/returns";
import { shipmentMessages } from "../../contract/shipments";
import { trackingMessages } from "../../contract/shipping-carriers";
import { orderItems, orders } from "../orders/tables";
import { shipments } from "./tables";
import { user } from "../users/tables";

// Partial shipment of lines (docs/shipments.md), through the API: the rules, the order's
// status, the emails and audit, the whole-order ship, cancelling, concurrency and returns.

const DAY = 24 * 60 * 60 * 1000;

const { t, call, admin, customer, other } = storeForTests({
  admin: "ship-admin@example.com",
  customers: { customer: "ship-customer@example.com", other: "ship-other@example.com" },
  env: { RETURN_WINDOW_DAYS: "30" },
});

const ship = (orderId: string, body: object, who = admin) =>
  call(who, "POST", `/api/orders/${orderId}/shipments`, body);
const UPS = { carrier: "ups", trackingNumber: "1z 999aa1 0123456784" };

/**
 * A customer's order written straight into the database: two lines (3 brake pads at $20, 2 oil
 * filters at $5), paid on account unless told otherwise.
 */
async function twoLineOrder(status: "paid" | "unpaid" = "paid"): Promise<string> {
  const [me] = await t.database.db.select().from(user).where(eq(user.email, customer.email));
  const [row] = await t.database.db
    .insert(orders)
    .values({
      userId: me!.id,
      orderEmail: customer.email,
      customerName: "Sam Shipper",
      totalCents: 7000,
      currency: "USD",
      phone: "5550100",
      address: "1 Dock Road",
      status,
      paidWith: status === "paid" ? "invoice" : null,
      transactionId: status === "paid" ? `on-account-${crypto.randomUUID()}` : null,
      paidAt: status === "paid" ? new Date() : null,
      holdExpiresAt: new Date(Date.now() + DAY),
    })
    .returning({ id: orders.id });
  await t.database.db.insert(orderItems).values([
    { orderId: row!.id, line: 1, productName: "Brake pads", unitPriceCents: 2000, qty: 3 },
    { orderId: row!.id, line: 2, productName: "Oil filter", unitPriceCents: 500, qty: 2 },
  ]);
  return row!.id;
}

test("an admin ships part of a line: the customer sees the parcel, its tracking and what is left, and is emailed", async () => {
  const orderId = await twoLineOrder();
  const res = await ship(orderId, { lines: [{ line: 1, qty: 2 }], ...UPS });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  expect(body).toMatchObject({ status: "paid", partiallyShipped: true });
  expect(body.shipments).toHaveLength(1);
  expect(body.shipments[0]).toMatchObject({
    carrier: "ups",
    trackingNumber: "1Z999AA10123456784",
    trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    lines: [{ line: 1, productName: "Brake pads", qty: 2 }],
  });
  expect(body.lines).toEqual([
    expect.objectContaining({ line: 1, ordered: 3, shipped: 2, toShip: 1 }),
    expect.objectContaining({ line: 2, ordered: 2, shipped: 0, toShip: 2 }),
  ]);

  // The customer sees the same; another customer is told it does not exist.
  const mine = await call(customer, "GET", `/api/orders/${orderId}/shipments`);
  expect(mine.statusCode).toBe(200);
  expect(mine.json()).toEqual(body);
  expect((await call(other, "GET", `/api/orders/${orderId}/shipments`)).statusCode).toBe(404);
  // The order keeps the spec's status (paid) until everything has shipped, marked as partly
  // shipped on the order, in My Items' list and in Manage All Orders.
  expect((await call(customer, "GET", `/api/orders/${orderId}`)).json()).toMatchObject({
    status: "paid",
    partiallyShipped: true,
  });
  const listed = (await call(customer, "GET", "/api/orders")).json();
  expect(listed.find((o: { _id: string }) => o._id === orderId)).toMatchObject({
    partiallyShipped: true,
  });
  const all = (await call(admin, "GET", "/api/orders/all?limit=100")).json();
  expect(all.find((o: { _id: string }) => o._id === orderId)).toMatchObject({
    partiallyShipped: true,
  });

  const mail = await waitForMail(t.app, customer.email, /Part of your .* order .* has shipped/);
  expect(mail.text).toContain("2 × Brake pads");
  expect(mail.text).toContain("Still to ship: 1 × Brake pads, 2 × Oil filter.");
  expect(mail.text).toContain("tracking number 1Z999AA10123456784");
  expect(mail.links).toContain("https://www.ups.com/track?tracknum=1Z999AA10123456784");

  const [audit] = await auditRowsOf(t.database.db, "order.ship-lines", orderId);
  expect(audit?.summary).toBe(
    `Shipped 2 × Brake pads of the order of ${customer.email} with UPS, tracking 1Z999AA10123456784`,
  );

  // The rest ships (without tracking): the order is shipped, and the last email says so.
  const rest = await ship(orderId, {
    lines: [
      { line: 2, qty: 2 },
      { line: 1, qty: 1 },
    ],
  });
  expect(rest.statusCode, rest.body).toBe(201);
  expect(rest.json()).toMatchObject({ status: "shipped", partiallyShipped: false });
  expect(rest.json().shipments).toHaveLength(2);
  expect(rest.json().lines.every((l: { toShip: number }) => l.toShip === 0)).toBe(true);
  const order = (await call(customer, "GET", `/api/orders/${orderId}`)).json();
  expect(order).toMatchObject({
    status: "shipped",
    partiallyShipped: false,
    carrier: null,
    trackingNumber: null,
  });
  expect(order.shippedAt).not.toBeNull();
  const last = await waitForMail(t.app, customer.email, /The last parcel of your .* order/);
  expect(last.text).toContain("every part of your order has shipped");

  // Nothing more can ship.
  const again = await ship(orderId, { lines: [{ line: 1, qty: 1 }] });
  expect(again.statusCode).toBe(422);
  expect(again.json().message).toBe(shipmentMessages.notPaid("shipped"));
});

test("quantities: never more than ordered minus shipped; bad input is a 4xx and writes nothing", async () => {
  const orderId = await twoLineOrder();
  expect((await ship(orderId, { lines: [{ line: 2, qty: 1 }] })).statusCode).toBe(201);

  const refusals: [object, number, string][] = [
    [{ lines: [{ line: 2, qty: 2 }] }, 422, shipmentMessages.tooMany(2, 1)],
    [{ lines: [{ line: 1, qty: 4 }] }, 422, shipmentMessages.tooMany(1, 3)],
    [{ lines: [{ line: 3, qty: 1 }] }, 422, shipmentMessages.noSuchLine(3)],
    [
      {
        lines: [
          { line: 1, qty: 1 },
          { line: 1, qty: 1 },
        ],
      },
      422,
      shipmentMessages.twice(1),
    ],
  ];
  for (const [body, status, message] of refusals) {
    const res = await ship(orderId, body);
    expect(res.statusCode, JSON.stringify(body)).toBe(status);
    expect(res.json().message).toBe(message);
  }
  const badBodies = [
    {},
    { lines: [] },
    { lines: [{ line: 1, qty: 0 }] },
    { lines: [{ line: 1, qty: 1.5 }] },
    { lines: [{ line: 0, qty: 1 }] },
    { lines: [{ line: 1, qty: 1 }], carrier: "ups" },
    { lines: [{ line: 1, qty: 1 }], trackingNumber: "1Z999" },
    { lines: [{ line: 1, qty: 1 }], carrier: "pigeon", trackingNumber: "1Z999" },
    { lines: [{ line: 1, qty: 1 }], carrier: "ups", trackingNumber: "no/slashes" },
    { lines: [{ line: 1, qty: 1 }], extra: true },
    { lines: "all" },
  ];
  for (const body of badBodies) {
    const res = await ship(orderId, body);
    expect(res.statusCode, JSON.stringify(body)).toBe(400);
  }
  expect((await ship(orderId, { lines: [{ line: 1, qty: 1 }], carrier: "ups" })).body).toContain(
    trackingMessages.both,
  );
  const view = (await call(admin, "GET", `/api/orders/${orderId}/shipments`)).json();
  expect(view.shipments).toHaveLength(1);
  expect(view.lines.map((l: { shipped: number }) => l.shipped)).toEqual([0, 1]);

  // Only paid orders; an unknown order is 404; a malformed id is 400.
  const unpaid = await twoLineOrder("unpaid");
  const res = await ship(unpaid, { lines: [{ line: 1, qty: 1 }] });
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe(shipmentMessages.notPaid("unpaid"));
  expect(
    (await ship("00000000-0000-4000-8000-000000000000", { lines: [{ line: 1, qty: 1 }] }))
      .statusCode,
  ).toBe(404);
  expect((await ship("nope", { lines: [{ line: 1, qty: 1 }] })).statusCode).toBe(400);
  // Customers cannot ship.
  expect((await ship(orderId, { lines: [{ line: 1, qty: 1 }] }, customer)).statusCode).toBe(403);
});

test("shipments at once cannot over-ship a line", async () => {
  const orderId = await twoLineOrder();
  // Line 1 has 3 units; five admins ship 2 each at the same moment: exactly one can.
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => ship(orderId, { lines: [{ line: 1, qty: 2 }] })),
  );
  const codes = answers.map((a) => a.statusCode).sort();
  expect(codes).toEqual([201, 422, 422, 422, 422]);
  const [row] = await t.database.db
    .select({ n: shipments.id })
    .from(shipments)
    .where(eq(shipments.orderId, orderId));
  expect(row).toBeDefined();
  const view = (await call(admin, "GET", `/api/orders/${orderId}/shipments`)).json();
  expect(view.shipments).toHaveLength(1);
  expect(view.lines[0]).toMatchObject({ shipped: 2, toShip: 1 });
});

test("the whole-order ship records one shipment of what is left; a partly shipped order cannot be cancelled", async () => {
  // Untouched: every line in one shipment, with the tracking given.
  const whole = await twoLineOrder();
  const shipped = await call(admin, "PATCH", `/api/orders/${whole}/status`, {
    status: "shipped",
    ...UPS,
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  const wholeView = (await call(customer, "GET", `/api/orders/${whole}/shipments`)).json();
  expect(wholeView.shipments).toHaveLength(1);
  expect(wholeView.shipments[0]).toMatchObject({
    carrier: "ups",
    lines: [
      { line: 1, qty: 3 },
      { line: 2, qty: 2 },
    ],
  });
  // A double click answers the same and writes no second shipment.
  expect(
    (await call(admin, "PATCH", `/api/orders/${whole}/status`, { status: "shipped" })).statusCode,
  ).toBe(200);
  expect(
    (await call(customer, "GET", `/api/orders/${whole}/shipments`)).json().shipments,
  ).toHaveLength(1);

  // Partly shipped: cancelling is refused (nothing changes); "Mark shipped" ships the rest.
  const partly = await twoLineOrder();
  expect((await ship(partly, { lines: [{ line: 1, qty: 1 }] })).statusCode).toBe(201);
  const cancel = await call(admin, "PATCH", `/api/orders/${partly}/status`, {
    status: "cancelled",
  });
  expect(cancel.statusCode).toBe(422);
  expect(cancel.json().message).toBe(shipmentMessages.cannotCancel);
  expect((await call(customer, "GET", `/api/orders/${partly}`)).json().status).toBe("paid");
  expect(
    (await call(admin, "PATCH", `/api/orders/${partly}/status`, { status: "shipped" })).statusCode,
  ).toBe(200);
  const view = (await call(customer, "GET", `/api/orders/${partly}/shipments`)).json();
  expect(view.status).toBe("shipped");
  expect(view.shipments.map((s: { lines: object[] }) => s.lines)).toEqual([
    [expect.objectContaining({ line: 1, qty: 1 })],
    [expect.objectContaining({ line: 1, qty: 2 }), expect.objectContaining({ line: 2, qty: 2 })],
  ]);
});

test("returns: only shipped units, within the window from each line's shipment", async () => {
  const orderId = await twoLineOrder();
  // Nothing shipped yet: nothing to return.
  const none = await call(customer, "POST", `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 1 }],
    reason: "damaged",
  });
  expect(none.statusCode).toBe(422);
  expect(none.json().message).toBe(returnMessages.notShipped);

  expect((await ship(orderId, { lines: [{ line: 1, qty: 2 }] })).statusCode).toBe(201);
  const returnable = (await call(customer, "GET", `/api/orders/${orderId}/returnable`)).json();
  expect(returnable.eligible).toBe(true);
  expect(returnable.lines.map((l: { returnable: number }) => l.returnable)).toEqual([2, 0]);

  const ask = (lines: object[]) =>
    call(customer, "POST", `/api/orders/${orderId}/returns`, { lines, reason: "damaged" });
  const notYet = await ask([{ line: 2, qty: 1 }]);
  expect(notYet.statusCode).toBe(422);
  expect(notYet.json().message).toBe(returnMessages.lineNotShipped(2));
  const tooMany = await ask([{ line: 1, qty: 3 }]);
  expect(tooMany.statusCode).toBe(422);
  expect(tooMany.json().message).toBe(returnMessages.tooMany(1, 2));
  expect((await ask([{ line: 1, qty: 1 }])).statusCode).toBe(201);

  // A returned unit stays shipped: the line still has exactly 1 to ship.
  const view = (await call(admin, "GET", `/api/orders/${orderId}/shipments`)).json();
  expect(view.lines[0]).toMatchObject({ shipped: 2, toShip: 1 });
  const over = await ship(orderId, { lines: [{ line: 1, qty: 2 }] });
  expect(over.json().message).toBe(shipmentMessages.tooMany(1, 1));

  // Line 1 shipped 31 days ago (closed); line 2 ships today (open).
  await t.database.db
    .update(shipments)
    .set({ shippedAt: new Date(Date.now() - 31 * DAY) })
    .where(eq(shipments.orderId, orderId));
  expect((await ship(orderId, { lines: [{ line: 2, qty: 2 }] })).statusCode).toBe(201);
  const later = (await call(customer, "GET", `/api/orders/${orderId}/returnable`)).json();
  expect(later.lines.map((l: { returnable: number }) => l.returnable)).toEqual([0, 2]);
  const closed = await ask([{ line: 1, qty: 1 }]);
  expect(closed.statusCode).toBe(422);
  expect(closed.json().message).toBe(returnMessages.lineWindowClosed(1, 30));
  expect((await ask([{ line: 2, qty: 2 }])).statusCode).toBe(201);
});
