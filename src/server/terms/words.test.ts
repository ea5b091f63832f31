import { beforeAll, expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { companyWithBuyer } from "../../../tests/support/trade";
import type { Order } from "../../contract/orders";
import { paymentWords } from "../../contract/payment-words";

/**
 * What an order on account says about its money (docs/terms.md): "On account · invoice … due …"
 * on its page, My Items, Manage All Orders and its emails, until its invoice is paid; a quote
 * accepted by a company on net terms goes on account as a checkout does.
 */

type Member = TestAccount & { id: string };
let buyer: Member;

const { t, call, admin } = storeForTests({
  admin: "words-admin@example.com",
  shipsToTestAddress: true,
});
beforeAll(async () => {
  const company = await companyWithBuyer(t.app, admin);
  buyer = company.buyer;
  const res = await call(admin, "PATCH", `/api/companies/${company.id}`, {
    paymentTerms: "net30",
    creditLimit: null,
  });
  expect(res.statusCode, res.body).toBe(200);
});

const part = () =>
  insertProduct(t.database.db, { priceCents: 5000, minimumOrder: 1, availableQuantity: 100 });

/** The buyer orders 2 of a new part, charged to the company's account: the order and its invoice. */
async function orderOnAccount() {
  const p = await part();
  const placed = await call(buyer, "POST", "/api/orders", {
    productId: p.id,
    orderQty: 2,
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    shipTo: TEST_SHIP_TO,
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json().order._id as string;
  const invoice = (await call(buyer, "GET", `/api/orders/${orderId}/invoice`)).json();
  return { orderId, invoice };
}

/** The order as each screen reads it: its page, My Items, Manage All Orders. */
async function everywhere(orderId: string): Promise<Order[]> {
  const page = (await call(buyer, "GET", `/api/orders/${orderId}`)).json() as Order;
  const mine = ((await call(buyer, "GET", "/api/orders")).json() as Order[]).find(
    (o) => o._id === orderId,
  )!;
  const all = ((await call(admin, "GET", "/api/orders/all?limit=100")).json() as Order[]).find(
    (o) => o._id === orderId,
  )!;
  return [page, mine, all];
}

test("an order on account reads On account with its invoice and due date everywhere, Paid once the invoice is paid", async () => {
  const { orderId, invoice } = await orderOnAccount();
  const due = new Date(invoice.dueAt);
  const dueWords = `${due.getUTCDate()} ${due.toLocaleString("en-GB", { month: "short", timeZone: "UTC" })} ${due.getUTCFullYear()}`;
  const owing = `On account · invoice ${invoice.number} due ${dueWords}`;
  for (const order of await everywhere(orderId)) {
    expect(order.account).toEqual({
      invoiceNumber: invoice.number,
      dueAt: invoice.dueAt,
      settled: false,
      creditedInFull: false,
    });
    expect(paymentWords(order)).toEqual({ badge: "On account", line: owing });
  }
  const mail = await waitForMail(t.app, buyer.email, /placed on your company's account/);
  expect(mail.text).toContain(owing);

  // The bank transfer arrives: the order reads Paid; reversed, it owes again.
  const record = await call(admin, "POST", `/api/invoices/${invoice.id}/payments`, {
    amount: invoice.total,
    paidOn: new Date().toISOString().slice(0, 10),
    reference: `WORDS-${orderId}`,
  });
  expect(record.statusCode, record.body).toBe(201);
  for (const order of await everywhere(orderId)) {
    expect(paymentWords(order).badge).toBe("Paid");
  }
  const paymentId = record.json().payment.id as string;
  const reverse = await call(
    admin,
    "POST",
    `/api/invoices/${invoice.id}/payments/${paymentId}/reverse`,
    {
      reason: "Wrong invoice",
    },
  );
  expect(reverse.statusCode, reverse.body).toBe(200);
  for (const order of await everywhere(orderId)) {
    expect(paymentWords(order)).toEqual({ badge: "On account", line: owing });
  }
});

test("an order on account returned in full reads Nothing due, credited in full, never Paid or On account", async () => {
  const { orderId, invoice } = await orderOnAccount();
  const shipped = await call(admin, "PATCH", `/api/orders/${orderId}/status`, {
    status: "shipped",
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  const asked = await call(buyer, "POST", `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 2 }],
    reason: "damaged",
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const returnId = asked.json().id as string;
  const approved = await call(admin, "POST", `/api/returns/${returnId}/decision`, {
    decision: "approve",
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const received = await call(admin, "POST", `/api/returns/${returnId}/receive`, {
    lines: [{ line: 1, qty: 2, condition: "as_new" }],
  });
  expect(received.statusCode, received.body).toBe(200);
  expect(received.json().status).toBe("refunded");

  // The credit note alone covers the invoice: nothing was paid, and nothing is due.
  for (const order of await everywhere(orderId)) {
    expect(order.account).toMatchObject({ settled: true, creditedInFull: true });
    expect(paymentWords(order)).toEqual({
      badge: "Shipped",
      line: `Nothing due · invoice ${invoice.number} credited in full`,
    });
  }
  const paid = await call(admin, "GET", "/api/invoices?status=paid&limit=100");
  expect(paid.statusCode, paid.body).toBe(200);
  expect(paid.json().map((i: { number: string }) => i.number)).toContain(invoice.number);
});

test("a quote accepted by a company on net terms goes on account, not to the card page", async () => {
  const p = await part();
  const cart = await call(buyer, "PUT", `/api/cart/items/${p.id}`, { qty: 4 });
  expect(cart.statusCode, cart.body).toBe(200);
  const asked = await call(buyer, "POST", "/api/quotes", { note: "Four for the fleet" });
  expect(asked.statusCode, asked.body).toBe(201);
  const quote = asked.json();
  const sent = await call(admin, "POST", `/api/quotes/${quote.id}/send`, {
    lines: [{ productId: p.id, unitPrice: 45 }],
    expiresAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const accepted = await call(buyer, "POST", `/api/quotes/${quote.id}/accept`, {
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    shipTo: TEST_SHIP_TO,
  });
  expect(accepted.statusCode, accepted.body).toBe(201);
  const order = accepted.json().order as Order;
  expect(order.status).toBe("paid");
  expect(order.account?.settled).toBe(false);
  expect(paymentWords(order).line).toMatch(/^On account · invoice INV-\d{4}-\d{6} due /);
  const intent = await call(buyer, "POST", "/api/create-payment-intent", { orderId: order._id });
  expect(intent.statusCode).toBe(409);
});
