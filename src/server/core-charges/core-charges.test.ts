import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { availableQuantityOf, insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { pdfText } from "../../../tests/support/pdf-text";
import { storeForTests } from "../../../tests/support/store";
import { payWithTestCard } from "../../../tests/support/payments";
import { AUSTIN_ADDRESS, flatUsShipping, texasSalesTax } from "../../../tests/support/destination";
import { coreDepositMessages } from "../../contract/core-charges";
import { returnMessages } from "../../contract/returns";
import { cartMessages } from "../../contract/cart";
import { adminAuditLog } from "../audit/tables";
import { orders } from "../orders/tables";
import { shipments } from "../shipments/tables";
import { testCardRefunds } from "../payments/tables";

// Core deposits (docs/core-charges.md) through the API: the admin sets one, the catalog and the
// cart show it, the checkout charges it as its own untaxed line, the invoice and the emails show
// it, and a core return refunds it (not the part, no stock back) within the core window.

const DAY = 24 * 60 * 60 * 1000;

const texas = AUSTIN_ADDRESS;

const { t, call, admin } = storeForTests({
  admin: "core-admin@example.com",
  env: { RETURN_WINDOW_DAYS: "30", CORE_RETURN_WINDOW_DAYS: "90" },
});
beforeAll(async () => {
  const zone = await flatUsShipping(t.app, admin, 10, "3-5 days");
  expect(zone.statusCode, zone.body).toBe(201);
  const rate = await texasSalesTax(t.app, admin, 10);
  expect(rate.statusCode, rate.body).toBe(201);
});

const stockOf = (id: string) => availableQuantityOf(t.database.db, id);

/** An alternator at $200.00 with a $45.00 core deposit, and a filter at $10.00 without. */
async function parts() {
  const alternator = await insertProduct(t.database.db, {
    name: "Remanufactured alternator",
    priceCents: 20000,
    minimumOrder: 1,
    availableQuantity: 20,
  });
  const set = await call(admin, "PUT", `/api/products/${alternator.id}/core-deposit`, {
    coreDeposit: 45,
  });
  expect(set.statusCode, set.body).toBe(200);
  const filter = await insertProduct(t.database.db, {
    priceCents: 1000,
    minimumOrder: 1,
    availableQuantity: 20,
  });
  return { alternator, filter };
}

/** A customer in Texas with 2 alternators and 1 filter in the cart, quoted to their address. */
async function quotedCart() {
  const { alternator, filter } = await parts();
  const me = await signUp(t.app);
  await call(me, "PUT", `/api/cart/items/${alternator.id}`, { qty: 2 });
  await call(me, "PUT", `/api/cart/items/${filter.id}`, { qty: 1 });
  const address = (await call(me, "POST", "/api/user/addresses", texas)).json();
  const quote = (await call(me, "POST", "/api/cart/quote", { addressId: address.id })).json();
  return { me, address, quote, alternator, filter };
}

/**
 * A customer in Texas checks out 2 alternators and 1 filter at the total they were shown, pays
 * with the test card, and (optionally) the admin ships it.
 */
async function paidOrder(ship = true) {
  const { me, address, quote, alternator, filter } = await quotedCart();
  const placed = await call(me, "POST", "/api/checkout", {
    addressId: address.id,
    expectedTotal: quote.total,
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().order;
  const { intent, charged, paid } = await payWithTestCard(t.app, me, order._id);
  expect(intent.statusCode, intent.body).toBe(200);
  expect(charged.statusCode, charged.body).toBe(200);
  expect(paid.statusCode, paid.body).toBe(200);
  if (ship) {
    const res = await call(admin, "PATCH", `/api/orders/${order._id}/status`, {
      status: "shipped",
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { me, order, quote, alternator, filter };
}

/** The order and its shipments (the return windows count from them) dated `days` ago. */
async function shippedDaysAgo(orderId: string, days: number) {
  const at = new Date(Date.now() - days * DAY);
  await t.database.db.update(orders).set({ shippedAt: at }).where(eq(orders.id, orderId));
  await t.database.db
    .update(shipments)
    .set({ shippedAt: at })
    .where(eq(shipments.orderId, orderId));
}

const ask = (who: TestAccount, orderId: string, body: object) =>
  call(who, "POST", `/api/orders/${orderId}/returns`, body);

test("the admin sets a core deposit: validated, audited, shown on the product; null clears it", async () => {
  const part = await insertProduct(t.database.db, { name: "Brake caliper" });
  const url = `/api/products/${part.id}/core-deposit`;
  for (const [coreDeposit, message] of [
    [0, coreDepositMessages.positive],
    [-5, coreDepositMessages.positive],
    [12.345, coreDepositMessages.decimals],
    [100_001, coreDepositMessages.tooLarge],
    ["45", coreDepositMessages.number],
  ] as const) {
    const bad = await call(admin, "PUT", url, { coreDeposit });
    expect(bad.statusCode, String(coreDeposit)).toBe(400);
    expect(bad.json().fields).toEqual({ coreDeposit: message });
  }
  expect(coreDepositMessages.tooLarge).toBe("A core deposit is at most 100,000");
  expect((await call(admin, "PUT", url, {})).statusCode).toBe(400);
  const unknown = "00000000-0000-4000-8000-000000000000";
  expect(
    (await call(admin, "PUT", `/api/products/${unknown}/core-deposit`, { coreDeposit: 5 }))
      .statusCode,
  ).toBe(404);

  const set = await call(admin, "PUT", url, { coreDeposit: 37.5 });
  expect(set.json()).toEqual({ productId: part.id, coreDeposit: 37.5 });
  // The catalog's cache is cleared by the products table's NOTIFY: wait for it.
  const shown = async () =>
    (await call(undefined, "GET", `/api/products/${part.id}`)).json().coreDeposit;
  await expect.poll(shown).toBe(37.5);
  const cleared = await call(admin, "PUT", url, { coreDeposit: null });
  expect(cleared.json()).toEqual({ productId: part.id, coreDeposit: null });
  await expect.poll(shown).toBeNull();

  const audit = await t.database.db
    .select({ action: adminAuditLog.action, summary: adminAuditLog.summary })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, part.id));
  expect(audit.map((a) => a.action)).toEqual(["product.core-deposit", "product.core-deposit"]);
  expect(audit.map((a) => a.summary).sort()).toEqual([
    expect.stringContaining("Removed the core deposit") as unknown as string,
    expect.stringContaining("to $37.50 (was none)") as unknown as string,
  ]);
});

test("the cart and the checkout charge the deposit per unit as its own untaxed line; a changed deposit is a 409 with the new figures", async () => {
  const { me, address, quote, alternator } = await quotedCart();
  // Parts 400 + 10 = 410; deposits 2 × 45 = 90 (untaxed); shipping 10; tax 10 % of 410 + 10 = 42.
  expect(quote).toMatchObject({
    subtotal: 410,
    coreDeposits: 90,
    shipping: 10,
    tax: 42,
    total: 552,
  });
  expect(quote.lines.map((l: { coreDeposit: number }) => l.coreDeposit)).toEqual([45, 0]);
  expect(quote.lines.map((l: { tax: number }) => l.tax)).toEqual([40, 1]);

  // The admin raises the deposit after the customer saw the total: nothing is placed.
  await call(admin, "PUT", `/api/products/${alternator.id}/core-deposit`, { coreDeposit: 50 });
  const changed = await call(me, "POST", "/api/checkout", {
    addressId: address.id,
    expectedTotal: quote.total,
  });
  expect(changed.statusCode).toBe(409);
  expect(changed.json()).toMatchObject({
    message: cartMessages.totalChanged,
    fields: { subtotal: "410", coreDeposits: "100", shipping: "10", tax: "42", total: "562" },
  });
  expect(await stockOf(alternator.id)).toBe(20);

  const placed = await call(me, "POST", "/api/checkout", {
    addressId: address.id,
    expectedTotal: 562,
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().order;
  expect(order).toMatchObject({ subtotal: 410, coreDeposits: 100, tax: 42, total: 562 });
  expect(order.items.map((l: { coreDeposit: number }) => l.coreDeposit)).toEqual([50, 0]);
  await waitForMail(t.app, me.email, /order .* is placed/i);
  const asAdmin = (await call(admin, "GET", `/api/orders/${order._id}`)).json();
  expect(asAdmin.coreDeposits).toBe(100);

  // The order keeps its deposit when the admin changes the product's later.
  await call(admin, "PUT", `/api/products/${alternator.id}/core-deposit`, { coreDeposit: null });
  const again = (await call(me, "GET", `/api/orders/${order._id}`)).json();
  expect(again.items[0].coreDeposit).toBe(50);
  expect(again.total).toBe(562);
});

test("the invoice shows the deposit line, untaxed; the order email lists it", async () => {
  const { me, order } = await paidOrder(false);
  const pdf = await call(me, "GET", `/api/orders/${order._id}/invoice.pdf`);
  expect(pdf.statusCode, pdf.body).toBe(200);
  const { text } = await pdfText(new Uint8Array(pdf.rawPayload));
  expect(text).toContain("Core deposit: Remanufactured alternator");
  expect(text).toContain("90.00");
  expect(text).toContain("552.00");
  const mail = await waitForMail(t.app, me.email, /payment received/i);
  expect(JSON.stringify(mail)).toContain("Core deposit: Remanufactured alternator");
});

test("a core return refunds the deposit (not the part) through the gateway with a credit note; no stock comes back", async () => {
  const { me, order, alternator } = await paidOrder();
  expect(await stockOf(alternator.id)).toBe(18);
  const returnable = (await call(me, "GET", `/api/orders/${order._id}/returnable`)).json();
  expect(returnable.lines).toMatchObject([
    { line: 1, bought: 2, returnable: 2, coreDeposit: 45, coresReturnable: 2 },
    { line: 2, bought: 1, returnable: 1, coreDeposit: 0, coresReturnable: 0 },
  ]);
  const asked = await ask(me, order._id, { lines: [{ line: 1, qty: 2 }], reason: "core" });
  expect(asked.statusCode, asked.body).toBe(201);
  const ret = asked.json();
  expect(ret).toMatchObject({
    reason: "core",
    amount: 90,
    lines: [{ line: 1, qty: 2, net: 90, tax: 0 }],
  });
  // Core returns leave the parts returnable (a different thing goes back).
  const after = (await call(me, "GET", `/api/orders/${order._id}/returnable`)).json();
  expect(after.lines[0]).toMatchObject({ returnable: 2, coresReturnable: 0 });

  expect(
    (await call(admin, "POST", `/api/returns/${ret.id}/decision`, { decision: "approve" }))
      .statusCode,
  ).toBe(200);
  const received = await call(admin, "POST", `/api/returns/${ret.id}/receive`);
  expect(received.statusCode, received.body).toBe(200);
  expect(received.json()).toMatchObject({ status: "refunded", refundError: null });
  expect(await stockOf(alternator.id)).toBe(18);
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
  const gateway = await t.database.db
    .select()
    .from(testCardRefunds)
    .where(eq(testCardRefunds.intentId, row!.transactionId!));
  expect(gateway.map((r) => r.amountCents)).toEqual([9000]);

  const notes = (await call(me, "GET", `/api/orders/${order._id}/credit-notes`)).json();
  expect(notes).toHaveLength(1);
  expect(notes[0].total).toBe(-90);
  const pdf = await call(me, "GET", notes[0].pdfUrl);
  const { text } = await pdfText(new Uint8Array(pdf.rawPayload));
  expect(text).toContain("Core deposit: Remanufactured alternator");
  expect(text).toContain("Core deposit refunded");

  // Every core bought is back: another is refused.
  const twice = await ask(me, order._id, { lines: [{ line: 1, qty: 1 }], reason: "core" });
  expect(twice.statusCode).toBe(422);
  expect(twice.json().message).toBe(returnMessages.tooManyCores(1, 0));
});

test("a core return is refused for a line without deposit, for more cores than bought, and after the core window (longer than the parts')", async () => {
  const { me, order } = await paidOrder();
  const noDeposit = await ask(me, order._id, { lines: [{ line: 2, qty: 1 }], reason: "core" });
  expect(noDeposit.statusCode).toBe(422);
  expect(noDeposit.json().message).toBe(returnMessages.noCoreDeposit(2));
  const tooMany = await ask(me, order._id, { lines: [{ line: 1, qty: 3 }], reason: "core" });
  expect(tooMany.statusCode).toBe(422);
  expect(tooMany.json().message).toBe(returnMessages.tooManyCores(1, 2));
  const one = await ask(me, order._id, { lines: [{ line: 1, qty: 1 }], reason: "core" });
  expect(one.statusCode).toBe(201);
  const more = await ask(me, order._id, { lines: [{ line: 1, qty: 2 }], reason: "core" });
  expect(more.json().message).toBe(returnMessages.tooManyCores(1, 1));

  // 60 days after shipping: the parts' window (30) is closed, the core window (90) is open.
  await shippedDaysAgo(order._id, 60);
  const part = await ask(me, order._id, { lines: [{ line: 1, qty: 1 }], reason: "damaged" });
  expect(part.json().message).toBe(returnMessages.windowClosed(30));
  expect(
    (await ask(me, order._id, { lines: [{ line: 1, qty: 1 }], reason: "core" })).statusCode,
  ).toBe(201);

  const { me: late, order: lateOrder } = await paidOrder();
  await shippedDaysAgo(lateOrder._id, 91);
  const closed = await ask(late, lateOrder._id, { lines: [{ line: 1, qty: 1 }], reason: "core" });
  expect(closed.statusCode).toBe(422);
  expect(closed.json().message).toBe(returnMessages.coreWindowClosed(90));
  const returnable = (await call(late, "GET", `/api/orders/${lateOrder._id}/returnable`)).json();
  expect(returnable.lines[0]).toMatchObject({ coreDeposit: 45, coresReturnable: 0 });
});

test("a paid order the store cancels refunds its deposits too", async () => {
  const { me, order } = await paidOrder(false);
  const cancelled = await call(admin, "PATCH", `/api/orders/${order._id}/status`, {
    status: "cancelled",
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  const notes = (await call(me, "GET", `/api/orders/${order._id}/credit-notes`)).json();
  expect(notes.map((n: { total: number }) => n.total)).toEqual([-552]);
});
