import { MONTHS } from "../../contract/calendar";
import { asc, eq, sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { availableQuantityOf, insertProduct } from "../../../tests/support/factories";
import { markOrderPaid, TEST_SELLER } from "../../../tests/support/invoices";
import { waitForMail } from "../../../tests/support/mailbox";
import { checkoutTestCart, orderToTestAddress } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { companyWithBuyer, createCompany, joinCompany } from "../../../tests/support/trade";
import { termsMessages } from "../../contract/terms";
import { adminAuditLog } from "../audit/tables";
import { cartItems } from "../cart/tables";
import { invoiceReminders } from "./tables";
import { invoices } from "../invoices/tables";
import { orders } from "../orders/tables";
import { issueInvoice } from "../invoices/issue";
import { createTermsMail } from "./mail";
import { createTermsService } from "./service";

/**
 * Net terms through the API (docs/terms.md): a company on net terms orders without a card
 * (settled with an invoice due on its terms) within its credit limit; admins list invoices on
 * account and record bank payments; reminders go to the owners once each.
 */

type Member = TestAccount & { id: string };
let companyId: string;
let owner: Member;
let buyer: Member;
const DAY = 24 * 60 * 60 * 1000;

const { t, call, admin } = storeForTests({
  admin: "terms-admin@example.com",
  shipsToTestAddress: true,
});
beforeAll(async () => {
  ({ id: companyId, owner, buyer } = await companyWithBuyer(t.app, admin));
});

async function setTerms(paymentTerms: string, creditLimit: number | null) {
  const res = await call(admin, "PATCH", `/api/companies/${companyId}`, {
    paymentTerms,
    creditLimit,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Settles every open invoice of the company, so each test starts with its full credit. */
async function settleAll() {
  const open = await call(admin, "GET", "/api/invoices?status=open&limit=100");
  for (const i of open.json() as { id: string; outstanding: number }[]) {
    const res = await call(admin, "POST", `/api/invoices/${i.id}/payments`, {
      amount: i.outstanding,
      paidOn: new Date().toISOString().slice(0, 10),
      reference: `SETTLE-${i.id}`,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}

/** A fresh $50.00 part with 100 in stock. */
const part = () =>
  insertProduct(t.database.db, { priceCents: 5000, minimumOrder: 1, availableQuantity: 100 });

const orderOne = (who: TestAccount, productId: string, qty: number) =>
  call(who, "POST", "/api/orders", orderToTestAddress(productId, qty, "1 Fleet Yard"));

const stockOf = (id: string) => availableQuantityOf(t.database.db, id);

const invoiceOf = (orderId: string) => call(buyer, "GET", `/api/orders/${orderId}/invoice`);

test("an admin sets payment terms and a credit limit; the change is audited; free text is refused", async () => {
  const bad = await call(admin, "PATCH", `/api/companies/${companyId}`, { paymentTerms: "Net 30" });
  expect(bad.statusCode).toBe(400);
  await setTerms("net30", 1000);
  const company = (await call(admin, "GET", `/api/companies/${companyId}`)).json();
  expect(company).toMatchObject({ paymentTerms: "net30", creditLimit: 1000 });
  const [entry] = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, companyId))
    .orderBy(sql`${adminAuditLog.at} desc`)
    .limit(1);
  expect(entry?.action).toBe("company.update");
  expect(entry?.summary).toContain('paymentTerms "card" → "net30"');
  // A new company pays by card.
  const fresh = await createCompany(t.app, admin);
  expect((await call(admin, "GET", `/api/companies/${fresh.id}`)).json().paymentTerms).toBe("card");
});

test("a buyer of a net-30 company orders without a card: paid on account, stock kept, invoice due in 30 days", async () => {
  await setTerms("net30", 1000);
  const p = await part();
  const res = await orderOne(buyer, p.id, 2);
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json().order;
  expect(order.status).toBe("paid");
  expect(await stockOf(p.id)).toBe(98);
  const invoice = (await invoiceOf(order._id)).json();
  expect(invoice.terms).toBe("net30");
  expect(invoice.total).toBe(100);
  expect(new Date(invoice.dueAt).getTime() - new Date(invoice.issuedAt).getTime()).toBe(30 * DAY);
  expect(invoice.paymentTerms).toMatch(
    /^Net 30: pay by bank transfer by \d{1,2} [A-Z][a-z]{2} \d{4},/,
  );
  // No card: a payment cannot be opened for it.
  const intent = await call(buyer, "POST", "/api/create-payment-intent", { orderId: order._id });
  expect(intent.statusCode).toBe(409);
  // The hold sweeper does not touch it (it is not holding stock: it has it).
  await t.database.db
    .update(orders)
    .set({ holdExpiresAt: sql`now() - interval '1 second'` })
    .where(eq(orders.id, order._id));
  const mail = await waitForMail(t.app, buyer.email, /placed on your company's account/);
  expect(mail.text).toContain(`invoice ${invoice.number} (Net 30) is attached`);
  expect(mail.attachments.map((a) => a.filename)).toEqual([`${invoice.number}.pdf`]);
  await settleAll();
});

test("the cart's checkout goes on account too (net 15)", async () => {
  await setTerms("net15", null);
  const p = await part();
  await t.database.db.insert(cartItems).values({
    userId: buyer.id,
    productId: p.id,
    productName: p.name,
    qty: 3,
    seenPriceCents: p.priceCents,
  });
  const res = await checkoutTestCart(t.app, buyer, 150, "1 Fleet Yard");
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json().order;
  expect(order.status).toBe("paid");
  const invoice = (await invoiceOf(order._id)).json();
  expect(invoice.terms).toBe("net15");
  expect(new Date(invoice.dueAt).getTime() - new Date(invoice.issuedAt).getTime()).toBe(15 * DAY);
  await settleAll();
});

test("a company on card terms pays by card as before", async () => {
  await setTerms("card", null);
  const p = await part();
  const res = await orderOne(buyer, p.id, 1);
  expect(res.json().order.status).toBe("unpaid");
  expect((await invoiceOf(res.json().order._id)).statusCode).toBe(404);
});

test("the credit limit: open invoices plus the order must stay within it; over it nothing is written", async () => {
  await setTerms("net30", 120);
  const p = await part();
  const first = await orderOne(buyer, p.id, 2); // $100 of $120
  expect(first.statusCode, first.body).toBe(201);
  const ordersBefore = (await t.database.db.select({ id: orders.id }).from(orders)).length;
  const over = await orderOne(buyer, p.id, 1); // $100 open + $50 > $120
  expect(over.statusCode).toBe(422);
  expect(over.json().message).toBe(termsMessages.overCreditLimit("$120.00", "$100.00"));
  expect((await t.database.db.select({ id: orders.id }).from(orders)).length).toBe(ordersBefore);
  expect(await stockOf(p.id)).toBe(98);
  // A part-payment frees that much credit: $100 − $40 open + $50 = $110 ≤ $120.
  const invoice = (await invoiceOf(first.json().order._id)).json();
  const paid = await call(admin, "POST", `/api/invoices/${invoice.id}/payments`, {
    amount: 40,
    paidOn: new Date().toISOString().slice(0, 10),
    reference: "BANK-40",
  });
  expect(paid.statusCode, paid.body).toBe(201);
  expect(paid.json().invoice).toMatchObject({ status: "open", paid: 40, outstanding: 60 });
  const fits = await orderOne(buyer, p.id, 1);
  expect(fits.statusCode, fits.body).toBe(201);
  expect(fits.json().order.status).toBe("paid");
  await settleAll();
});

test("recording payments: paid when covered; over-payment 422; the same reference twice 409; card invoices and unknown ids refused", async () => {
  await setTerms("net30", null);
  const p = await part();
  const order = (await orderOne(buyer, p.id, 2)).json().order; // $100
  const invoice = (await invoiceOf(order._id)).json();
  const today = new Date().toISOString().slice(0, 10);
  const pay = (amount: number, reference: string, paidOn = today) =>
    call(admin, "POST", `/api/invoices/${invoice.id}/payments`, { amount, paidOn, reference });

  const over = await pay(100.01, "BANK-A");
  expect(over.statusCode).toBe(422);
  expect(over.json().message).toBe(termsMessages.overpaid("$100.01", "$100.00", invoice.number));
  expect((await pay(30, "BANK-A")).statusCode).toBe(201);
  const again = await pay(30, "bank-a");
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toBe(termsMessages.duplicateReference("bank-a", invoice.number));
  const future = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
  expect((await pay(1, "BANK-F", future)).statusCode).toBe(422);
  expect((await pay(0, "BANK-Z")).statusCode).toBe(400);
  expect((await pay(10, "")).statusCode).toBe(400);
  const rest = await pay(70, "BANK-B");
  expect(rest.statusCode, rest.body).toBe(201);
  expect(rest.json().invoice).toMatchObject({ status: "paid", paid: 100, outstanding: 0 });
  const more = await pay(1, "BANK-C");
  expect(more.statusCode).toBe(422);
  expect(more.json().message).toBe(termsMessages.alreadyPaid(invoice.number));
  // The invoice itself was never changed: issued once, payments beside it.
  const paidList = (await call(admin, "GET", "/api/invoices?status=paid&limit=100")).json();
  expect(paidList.some((i: { id: string }) => i.id === invoice.id)).toBe(true);
  const audit = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, invoice.id))
    .orderBy(asc(adminAuditLog.at));
  expect(audit.map((a) => a.action)).toEqual(["invoice.payment", "invoice.payment"]);
  expect(audit.map((a) => a.summary).join("\n")).toContain("paid in full");
  const [year, month, day] = today.split("-").map(Number);
  expect(audit[0]!.summary).toContain(
    `, paid ${day} ${MONTHS[month! - 1]} ${year}, reference BANK-A`,
  );

  // A card invoice has nothing to record against it; no such invoice is 404.
  await setTerms("card", null);
  const card = await orderOne(buyer, p.id, 1);
  const cardOrder = card.json().order._id as string;
  const cardInvoice = await t.database.db.transaction(async (tx) => {
    await markOrderPaid(tx, cardOrder);
    return issueInvoice(tx, cardOrder, TEST_SELLER);
  });
  const refused = await call(admin, "POST", `/api/invoices/${cardInvoice.id}/payments`, {
    amount: 1,
    paidOn: today,
    reference: "X",
  });
  expect(refused.statusCode).toBe(422);
  expect(refused.json().message).toBe(termsMessages.notOnAccount);
  const unknown = await call(admin, "POST", `/api/invoices/${crypto.randomUUID()}/payments`, {
    amount: 1,
    paidOn: today,
    reference: "X",
  });
  expect(unknown.statusCode).toBe(404);
  // A buyer may not record payments, nor list invoices.
  expect((await call(buyer, "GET", "/api/invoices")).statusCode).toBe(403);
});

test("the overdue list: past the due date and unpaid, with days overdue", async () => {
  await setTerms("card", null);
  const p = await part();
  const placed = (await orderOne(buyer, p.id, 1)).json().order._id as string;
  // Issued 40 days ago on net 30: 10 days overdue.
  const issued = await t.database.db.transaction(async (tx) => {
    await markOrderPaid(tx, placed);
    return issueInvoice(tx, placed, TEST_SELLER, new Date(Date.now() - 40 * DAY), "net30");
  });
  const overdue = (await call(admin, "GET", "/api/invoices?status=overdue")).json();
  const row = overdue.find((i: { id: string }) => i.id === issued.id);
  expect(row).toMatchObject({
    number: issued.number,
    companyId,
    status: "overdue",
    daysOverdue: 10,
    total: 50,
    outstanding: 50,
  });
  expect(row.companyName).toBeTruthy();
  const open = (await call(admin, "GET", "/api/invoices?status=open")).json();
  expect(open.some((i: { id: string }) => i.id === issued.id)).toBe(true);
  const bad = await call(admin, "GET", "/api/invoices?status=late");
  expect(bad.statusCode).toBe(400);
  const paged = await call(admin, "GET", "/api/invoices?status=open&limit=1");
  expect(paged.json()).toHaveLength(1);
  expect(Number(paged.headers["x-total-count"])).toBeGreaterThanOrEqual(1);
  await settleAll();
});

test("reminders: 3 days before the due date and the day after, to the owners, each once; none for a paid invoice", async () => {
  await setTerms("net30", null);
  const p = await part();
  const order = (await orderOne(buyer, p.id, 1)).json().order;
  const invoice = (await invoiceOf(order._id)).json();
  const dueAt = new Date(invoice.dueAt).getTime();
  const queued: { to: string; subject: string; key: string }[] = [];
  const mail = createTermsMail(
    { sendIn: async (_tx, m, key) => void queued.push({ to: m.to, subject: m.subject, key }) },
    "http://store.test",
  );
  const at = (ms: number) => createTermsService(t.database.db, { mail, now: () => new Date(ms) });
  const mine = () => queued.filter((q) => q.subject.includes(invoice.number));

  expect(await at(dueAt - 5 * DAY).sendReminders()).toBe(0);
  await at(dueAt - 2 * DAY).sendReminders();
  expect(mine()).toEqual([
    expect.objectContaining({
      to: owner.email,
      subject: `Invoice ${invoice.number} is due on ${new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(dueAt))}`,
    }),
  ]);
  await at(dueAt - 1 * DAY).sendReminders();
  await at(dueAt + 0.5 * DAY).sendReminders();
  expect(mine()).toHaveLength(1);
  await at(dueAt + 1.5 * DAY).sendReminders();
  await at(dueAt + 2 * DAY).sendReminders();
  expect(mine().map((m) => m.subject)).toEqual([
    expect.stringContaining("is due on"),
    `Invoice ${invoice.number} is overdue`,
  ]);
  expect(mine().every((m) => m.to === owner.email)).toBe(true);
  const recorded = await t.database.db
    .select({ kind: invoiceReminders.kind })
    .from(invoiceReminders)
    .where(eq(invoiceReminders.invoiceId, invoice.id));
  expect(recorded.map((r) => r.kind).sort()).toEqual(["before_due", "overdue"]);

  // Paid before its reminders: none.
  const second = (await orderOne(buyer, p.id, 1)).json().order;
  const paidInvoice = (await invoiceOf(second._id)).json();
  await settleAll();
  await at(new Date(paidInvoice.dueAt).getTime() + 2 * DAY).sendReminders();
  expect(queued.filter((q) => q.subject.includes(paidInvoice.number))).toEqual([]);
  // The invoices stay as issued (the trigger would refuse any update anyway).
  const [row] = await t.database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
  expect(row?.dueAt.getTime()).toBe(dueAt);
});

test("an order over a spending limit waits for approval; approved, it goes on account (credit checked then)", async () => {
  await setTerms("net30", 200);
  const set = await call(owner, "PATCH", `/api/companies/${companyId}/members/${buyer.id}`, {
    orderLimit: 60,
  });
  expect(set.statusCode, set.body).toBe(200);
  try {
    const p = await part();
    const waiting = (await orderOne(buyer, p.id, 2)).json().order; // $100 > $60 limit
    expect(waiting.status).toBe("awaiting_approval");
    const approved = await call(owner, "POST", `/api/approvals/${waiting._id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().order.status).toBe("paid");
    expect((await invoiceOf(waiting._id)).json().terms).toBe("net30");
    const approvedMail = await waitForMail(t.app, buyer.email, /was approved/);
    expect(approvedMail.text).toContain("It is charged to your company's account");
    expect(approvedMail.text).not.toContain("please pay");

    // $100 open: another $150 awaiting approval would go over $200 when approved.
    const big = (await orderOne(buyer, p.id, 3)).json().order;
    expect(big.status).toBe("awaiting_approval");
    const over = await call(owner, "POST", `/api/approvals/${big._id}/approve`, {});
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe(termsMessages.overCreditLimit("$200.00", "$100.00"));
    const still = await t.database.db.select().from(orders).where(eq(orders.id, big._id));
    expect(still[0]?.status).toBe("awaiting_approval");
  } finally {
    await call(owner, "PATCH", `/api/companies/${companyId}/members/${buyer.id}`, {
      orderLimit: null,
    });
    await settleAll();
  }
});

test("a return on account credits its invoice: less is due and the credit it frees can be used", async () => {
  await setTerms("net30", 120);
  const p = await part();
  const placed = await orderOne(buyer, p.id, 2); // $100 of $120
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json().order._id;
  const invoice = (await invoiceOf(orderId)).json();
  const shipped = await call(admin, "PATCH", `/api/orders/${orderId}/status`, {
    status: "shipped",
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  // $100 open + $50 > $120.
  expect((await orderOne(buyer, p.id, 1)).statusCode).toBe(422);

  const returnOne = async () => {
    const asked = await call(buyer, "POST", `/api/orders/${orderId}/returns`, {
      lines: [{ line: 1, qty: 1 }],
      reason: "damaged",
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().id;
    const approved = await call(admin, "POST", `/api/returns/${id}/decision`, {
      decision: "approve",
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const received = await call(admin, "POST", `/api/returns/${id}/receive`);
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json().status).toBe("refunded");
  };
  const listed = async (status: string) =>
    (
      (await call(admin, "GET", `/api/invoices?status=${status}&limit=100`)).json() as {
        id: string;
        outstanding: number;
        status: string;
      }[]
    ).find((i) => i.id === invoice.id);

  await returnOne();
  const notes = (await call(buyer, "GET", `/api/orders/${orderId}/credit-notes`)).json();
  expect(notes.map((n: { total: number }) => n.total)).toEqual([-50]);
  expect(await listed("open")).toMatchObject({ outstanding: 50, status: "open" });
  // $50 open + $50 ≤ $120: the credit note freed credit.
  const fits = await orderOne(buyer, p.id, 1);
  expect(fits.statusCode, fits.body).toBe(201);

  // The other unit back too: nothing is due on the invoice any more.
  await returnOne();
  expect(await listed("open")).toBeUndefined();
  expect(await listed("paid")).toMatchObject({ outstanding: 0, status: "paid" });
  await settleAll();
});

test("a company's owners and viewers see its invoices on account and their PDFs; buyers, outsiders and other companies do not", async () => {
  await setTerms("net30", 1000);
  const viewer = await joinCompany(t.app, owner, companyId, "viewer");
  const otherCompany = (await createCompany(t.app, admin)).id;
  const otherOwner = await joinCompany(t.app, admin, otherCompany, "owner");
  const loner = await signUp(t.app, { email: "terms-loner@example.com" });
  const placed = await orderOne(buyer, (await part()).id, 1);
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json().order._id as string;

  for (const who of [owner, viewer]) {
    const res = await call(who, "GET", "/api/company/invoices?status=open");
    expect(res.statusCode, res.body).toBe(200);
    const mine = (res.json() as { orderId: string; companyId: string }[]).find(
      (i) => i.orderId === orderId,
    );
    expect(mine).toMatchObject({ companyId, status: "open", outstanding: 50 });
    expect(res.json().every((i: { companyId: string }) => i.companyId === companyId)).toBe(true);
    expect(Number(res.headers["x-total-count"])).toBe(res.json().length);
    const pdf = await call(who, "GET", `/api/orders/${orderId}/invoice.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toContain("application/pdf");
  }

  // Their company page adds up what is owed and the credit left; a buyer's does not.
  const page = (await call(viewer, "GET", "/api/company")).json().company;
  expect(page).toMatchObject({ openInvoices: 50, creditLeft: 950 });
  const buyersPage = (await call(buyer, "GET", "/api/company")).json().company;
  expect(buyersPage).toMatchObject({ openInvoices: null, creditLeft: null, creditLimit: 1000 });

  const asBuyer = await call(buyer, "GET", "/api/company/invoices");
  expect(asBuyer.statusCode).toBe(403);
  expect(asBuyer.json().message).toBe(termsMessages.notForBuyers);
  const asLoner = await call(loner, "GET", "/api/company/invoices");
  expect(asLoner.statusCode).toBe(404);
  expect(asLoner.json().message).toBe(termsMessages.noCompany);
  // Another company's owner sees their own (none of these), and not this invoice's PDF.
  const theirs = await call(otherOwner, "GET", "/api/company/invoices?status=open");
  expect(theirs.json()).toEqual([]);
  expect((await call(otherOwner, "GET", `/api/orders/${orderId}/invoice.pdf`)).statusCode).toBe(
    404,
  );
  expect((await call(loner, "GET", `/api/orders/${orderId}/invoice`)).statusCode).toBe(404);
  expect((await call(undefined, "GET", "/api/company/invoices")).statusCode).toBe(401);
  expect((await call(admin, "GET", "/api/company/invoices")).statusCode).toBe(403);
  const bad = await call(owner, "GET", "/api/company/invoices?status=late");
  expect(bad.statusCode).toBe(400);
  await settleAll();
});

test("a payment recorded by mistake is reversed with a reason: it stops counting, stays listed, is audited, and its reference can be recorded again", async () => {
  await setTerms("net30", null);
  const order = (await orderOne(buyer, (await part()).id, 2)).json().order; // $100
  const invoice = (await invoiceOf(order._id)).json();
  const today = new Date().toISOString().slice(0, 10);
  const paid = await call(admin, "POST", `/api/invoices/${invoice.id}/payments`, {
    amount: 100,
    paidOn: today,
    reference: "BACS-WRONG",
  });
  expect(paid.json().invoice.status).toBe("paid");
  const paymentId = paid.json().payment.id as string;
  const reverse = (body: object, id = paymentId) =>
    call(admin, "POST", `/api/invoices/${invoice.id}/payments/${id}/reverse`, body);

  expect((await reverse({})).statusCode).toBe(400);
  expect((await reverse({ reason: "   " })).statusCode).toBe(400);
  expect((await reverse({ reason: "x".repeat(201) })).statusCode).toBe(400);
  expect((await reverse({ reason: "ok", extra: 1 })).statusCode).toBe(400);
  expect((await reverse({ reason: "ok" }, crypto.randomUUID())).statusCode).toBe(404);
  expect(
    (
      await call(buyer, "POST", `/api/invoices/${invoice.id}/payments/${paymentId}/reverse`, {
        reason: "no",
      })
    ).statusCode,
  ).toBe(403);

  const done = await reverse({ reason: "Belonged to another company's invoice" });
  expect(done.statusCode, done.body).toBe(200);
  expect(done.json().payment).toMatchObject({
    reversedReason: "Belonged to another company's invoice",
    amount: 100,
  });
  expect(done.json().invoice).toMatchObject({ status: "open", paid: 0, outstanding: 100 });
  const twice = await reverse({ reason: "again" });
  expect(twice.statusCode).toBe(409);
  expect(twice.json().message).toBe(termsMessages.alreadyReversed("BACS-WRONG"));

  // Still listed, marked; the open list and the credit count it as owed again.
  const listed = (await call(admin, "GET", `/api/invoices/${invoice.id}/payments`)).json();
  expect(listed).toEqual([
    expect.objectContaining({
      id: paymentId,
      reversedReason: "Belonged to another company's invoice",
    }),
  ]);
  expect(listed[0].reversedAt).not.toBeNull();
  const open = (await call(admin, "GET", "/api/invoices?status=open&limit=100")).json();
  expect(open.some((i: { id: string }) => i.id === invoice.id)).toBe(true);
  expect((await call(owner, "GET", "/api/company")).json().company.openInvoices).toBe(100);

  // The same reference may now be recorded for the right amount.
  const right = await call(admin, "POST", `/api/invoices/${invoice.id}/payments`, {
    amount: 100,
    paidOn: today,
    reference: "bacs-wrong",
  });
  expect(right.statusCode, right.body).toBe(201);
  expect(right.json().invoice.status).toBe("paid");
  const audit = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, invoice.id))
    .orderBy(asc(adminAuditLog.at));
  expect(audit.map((a) => a.action)).toEqual([
    "invoice.payment",
    "invoice.payment.reverse",
    "invoice.payment",
  ]);
  expect(audit[1]!.summary).toContain("Belonged to another company's invoice");
  expect(
    (await call(admin, "GET", `/api/invoices/${crypto.randomUUID()}/payments`)).statusCode,
  ).toBe(404);
});
