import { eq, sql, type SQL } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { auditRowsOf } from "../../../tests/support/audit";
import type { TestAccount } from "../../../tests/support/accounts";
import { availableQuantityOf, insertProduct } from "../../../tests/support/factories";
import { messagesFor, waitForMail } from "../../../tests/support/mailbox";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { openPayment } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, joinCompany } from "../../../tests/support/trade";
import { approvalMessages } from "../../contract/approvals";
import { orders } from "../orders/tables";
import { createInventory } from "../inventory/service";
import { createExpireHolds } from "../workflows/expire-holds";
import { createOrderMail } from "../orders/mail";

/**
 * Approvals through the API (docs/approvals.md): an order over a buyer's limit waits, holding its
 * stock; an owner of the company approves (the buyer pays) or declines (cancelled, stock back);
 * every decision is audited and emailed; deciding twice or out of turn is refused.
 */

type Member = TestAccount & { id: string };
let owner: Member;
let secondOwner: Member;
let buyer: Member;
let companyId: string;
const MINUTE = 60_000;
/** An order's number as emails show it. */
const ref = (id: string) => id.slice(0, 8).toUpperCase();

const { t, call, admin } = storeForTests({
  admin: "approvals-admin@example.com",
  shipsToTestAddress: true,
});
beforeAll(async () => {
  companyId = (await createCompany(t.app, admin)).id;
  owner = await joinCompany(t.app, admin, companyId, "owner");
  secondOwner = await joinCompany(t.app, admin, companyId, "owner");
  buyer = await joinCompany(t.app, owner, companyId, "buyer");
});

async function setLimits(
  who: Member,
  limits: { orderLimit?: number | null; monthlyLimit?: number | null },
) {
  const res = await call(owner, "PATCH", `/api/companies/${companyId}/members/${who.id}`, limits);
  expect(res.statusCode, res.body).toBe(200);
}

/** A fresh $50.00 part with 100 in stock. */
const part = () =>
  insertProduct(t.database.db, { priceCents: 5000, minimumOrder: 1, availableQuantity: 100 });

async function order(who: TestAccount, productId: string, qty: number) {
  const res = await call(who, "POST", "/api/orders", {
    productId,
    orderQty: qty,
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    shipTo: TEST_SHIP_TO,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order as {
    _id: string;
    number: string;
    status: string;
    holdExpiresAt: string;
  };
}

/** `qty` (3 or more) of a fresh part, ordered by the buyer held to $100 an order: it waits. */
async function waitingOrder(qty: number) {
  await setLimits(buyer, { orderLimit: 100, monthlyLimit: null });
  const p = await part();
  return { p, waiting: await order(buyer, p.id, qty) };
}

/** Moves the end of the order's hold to `at`. */
const holdEnds = (orderId: string, at: Date | SQL) =>
  t.database.db.update(orders).set({ holdExpiresAt: at }).where(eq(orders.id, orderId));

/** One unit of the product ordered as `who` without a ship-to: the answer, whatever it is. */
const orderOne = (who: TestAccount, productId: string) =>
  call(who, "POST", "/api/orders", {
    productId,
    orderQty: 1,
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
  });

const decide = (who: TestAccount, orderId: string, action: "approve" | "decline", note?: string) =>
  call(who, "POST", `/api/approvals/${orderId}/${action}`, note === undefined ? {} : { note });

const stockOf = (id: string) => availableQuantityOf(t.database.db, id);

const payIntent = (who: TestAccount, orderId: string) => openPayment(t.app, who, orderId);

test("within the per-order limit an order is ordinary; over it, it awaits approval, holding its stock, and cannot be paid", async () => {
  await setLimits(buyer, { orderLimit: 100, monthlyLimit: null });
  const within = await part();
  expect((await order(buyer, within.id, 2)).status).toBe("unpaid"); // $100.00: at the limit

  const over = await part();
  const waiting = await order(buyer, over.id, 3); // $150.00
  expect(waiting.status).toBe("awaiting_approval");
  expect(await stockOf(over.id)).toBe(97);
  // Held as an unpaid order is: the duplicate rule applies to it.
  const again = await orderOne(buyer, over.id);
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toBe("You have already ordered this product");

  const pay = await payIntent(buyer, waiting._id);
  expect(pay.statusCode).toBe(409);
  expect(pay.json().message).toBe(approvalMessages.payAfterApproval);
  const confirm = await call(buyer, "PATCH", `/api/orders/${waiting._id}`, {
    transactionId: "pi_made_up",
  });
  expect(confirm.statusCode).toBe(409);

  // Both owners are asked, with the link to decide; the buyer is told it waits.
  for (const o of [owner, secondOwner]) {
    const mail = await waitForMail(t.app, o.email, new RegExp(`order ${waiting.number}`));
    expect(mail.text).toContain("over the per-order limit of $100.00");
    expect(
      mail.links.some((l) =>
        l.endsWith(`/dashboard/approvals?order=${waiting._id}&number=${waiting.number}`),
      ),
    ).toBe(true);
  }
  const told = await waitForMail(
    t.app,
    buyer.email,
    new RegExp(`${waiting.number} is awaiting approval`),
  );
  expect(told.text).toContain("$150.00");

  const list = await call(owner, "GET", "/api/approvals");
  expect(list.statusCode).toBe(200);
  expect(list.headers["x-total-count"]).toBe("1");
  expect(list.json()).toEqual([
    expect.objectContaining({
      orderId: waiting._id,
      companyId,
      buyerEmail: buyer.email,
      reason: "order_limit",
      limit: 100,
      total: 150,
      items: [expect.objectContaining({ productId: over.id, qty: 3, unitPrice: 50 })],
    }),
  ]);
  // Tidy for the next tests: decline it.
  expect((await decide(owner, waiting._id, "decline")).statusCode).toBe(200);
});

test("approving makes it an unpaid order with a fresh hold: the buyer is emailed the note and pays; deciding again is refused", async () => {
  const { p, waiting } = await waitingOrder(4);
  // Most of its hold has gone by while the owners thought about it.
  await holdEnds(waiting._id, new Date(Date.now() + 60_000));

  const res = await decide(owner, waiting._id, "approve", "  Fine for the March fleet service  ");
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({
    decision: "approved",
    note: "Fine for the March fleet service",
    order: { _id: waiting._id, status: "unpaid" },
  });
  // Test accounts are unverified: a fresh hold is 30 minutes for them (HOLD_NEW_CUSTOMER_MINUTES).
  expect(new Date(body.order.holdExpiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * MINUTE);
  expect(await stockOf(p.id)).toBe(96);

  const mail = await waitForMail(t.app, buyer.email, new RegExp(`${waiting.number} was approved`));
  expect(mail.text).toContain("Fine for the March fleet service");
  expect(mail.links.some((l) => l.endsWith(`/dashboard/payment/${waiting._id}`))).toBe(true);

  const [audit] = await auditRowsOf(t.database.db, "order.approve", waiting._id);
  expect(audit).toMatchObject({ actorEmail: owner.email, targetType: "order" });
  expect(audit!.summary).toContain("Fine for the March fleet service");

  for (const [who, action] of [
    [owner, "approve"],
    [secondOwner, "decline"],
  ] as const) {
    const twice = await decide(who, waiting._id, action);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(approvalMessages.alreadyApproved);
  }
  expect((await payIntent(buyer, waiting._id)).statusCode).toBe(200);
});

test("declining cancels it through the cancel path: stock back, the buyer emailed the note, audited, not payable", async () => {
  const { p, waiting } = await waitingOrder(5);
  expect(await stockOf(p.id)).toBe(95);

  const res = await decide(secondOwner, waiting._id, "decline", "Buy these from the depot");
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ decision: "declined", order: { status: "cancelled" } });
  expect(await stockOf(p.id)).toBe(100);

  const mail = await waitForMail(t.app, buyer.email, new RegExp(`${waiting.number} was declined`));
  expect(mail.text).toContain("Buy these from the depot");
  const [audit] = await auditRowsOf(t.database.db, "order.decline", waiting._id);
  expect(audit?.actorEmail).toBe(secondOwner.email);

  const pay = await payIntent(buyer, waiting._id);
  expect(pay.statusCode).toBe(409);
  expect(pay.json().message).toBe(approvalMessages.declined);
  const twice = await decide(owner, waiting._id, "approve");
  expect(twice.statusCode).toBe(409);
  expect(twice.json().message).toBe(approvalMessages.alreadyDeclined);
  // Nobody is told the store cancelled it: the decline email is the one.
  expect(
    (await messagesFor(t.app, buyer.email)).filter((m) => m.subject.includes("was cancelled")),
  ).toEqual([]);
});

test("the monthly limit counts the month's orders once approved (as any unpaid or paid one), not those awaiting approval or declined", async () => {
  const b = await joinCompany(t.app, owner, companyId, "buyer");
  await setLimits(b, { orderLimit: null, monthlyLimit: 200 });
  expect((await order(b, (await part()).id, 2)).status).toBe("unpaid"); // $100 spent
  const big = await order(b, (await part()).id, 3); // $250 > $200
  expect(big.status).toBe("awaiting_approval");
  // The one awaiting is not counted: $100 + $50 fits.
  expect((await order(b, (await part()).id, 1)).status).toBe("unpaid"); // $150 spent
  const small = await order(b, (await part()).id, 1); // $150 + $50: at the limit is within it
  expect(small.status).toBe("unpaid"); // $200 spent
  const declined = await order(b, (await part()).id, 1);
  expect(declined.status).toBe("awaiting_approval");
  expect((await decide(owner, declined._id, "decline")).statusCode).toBe(200);
  // Approved, it counts: $200 + $150 = $350 spent; declined ones do not.
  expect((await decide(owner, big._id, "approve")).statusCode).toBe(200);
  await setLimits(b, { monthlyLimit: 400 });
  expect((await order(b, (await part()).id, 1)).status).toBe("unpaid"); // $350 + $50 = $400
  expect((await order(b, (await part()).id, 1)).status).toBe("awaiting_approval"); // $450
});

test("an order not awaiting approval, another company's, or the owner's own cannot be decided; the note is at most 500 characters", async () => {
  await setLimits(buyer, { orderLimit: 100, monthlyLimit: null });
  const ordinary = await order(buyer, (await part()).id, 1);
  const notWaiting = await decide(owner, ordinary._id, "approve");
  expect(notWaiting.statusCode).toBe(409);
  expect(notWaiting.json().message).toBe(approvalMessages.notAwaiting("unpaid"));

  const waiting = await order(buyer, (await part()).id, 3);
  const tooLong = await decide(owner, waiting._id, "approve", "x".repeat(501));
  expect(tooLong.statusCode).toBe(400);
  expect(JSON.stringify(tooLong.json())).toContain(approvalMessages.noteTooLong);
  expect((await decide(owner, waiting._id, "approve", "y".repeat(500))).statusCode).toBe(200);

  // Another company's owner is told it does not exist, nor does an unknown order.
  const other = (await createCompany(t.app, admin)).id;
  const otherOwner = await joinCompany(t.app, admin, other, "owner");
  const next = await order(buyer, (await part()).id, 3);
  expect((await decide(otherOwner, next._id, "approve")).statusCode).toBe(404);
  expect((await decide(owner, crypto.randomUUID(), "approve")).statusCode).toBe(404);
  const otherList = await call(otherOwner, "GET", "/api/approvals");
  expect(otherList.json()).toEqual([]);

  // An owner over their own limit waits for another owner.
  await setLimits(owner, { orderLimit: 10 });
  const own = await order(owner, (await part()).id, 1);
  expect(own.status).toBe("awaiting_approval");
  const self = await decide(owner, own._id, "approve");
  expect(self.statusCode).toBe(403);
  expect(self.json().message).toBe(approvalMessages.ownOrder);
  expect((await decide(secondOwner, own._id, "approve")).statusCode).toBe(200);
  await setLimits(owner, { orderLimit: null });
  expect((await decide(owner, next._id, "decline")).statusCode).toBe(200);
});

test("a company's only owner over their limit is refused at once (nobody could approve it), and nothing is written", async () => {
  const soleCompany = (await createCompany(t.app, admin)).id;
  const sole = await joinCompany(t.app, admin, soleCompany, "owner");
  const limited = await call(admin, "PATCH", `/api/companies/${soleCompany}/members/${sole.id}`, {
    orderLimit: 10,
  });
  expect(limited.statusCode, limited.body).toBe(200);
  const p = await part();
  const res = await orderOne(sole, p.id);
  expect(res.statusCode).toBe(422);
  expect(res.json()).toMatchObject({
    error: "spending_limit",
    message: approvalMessages.noApprover(approvalMessages.reason("order_limit", "$10.00")),
  });
  expect(await stockOf(p.id)).toBe(100);
  const [{ n }] = (
    await t.database.pool.query<{ n: number }>(
      "select count(*)::int as n from orders where order_email = $1",
      [sole.email],
    )
  ).rows as [{ n: number }];
  expect(n).toBe(0);
});

test("an order nobody decides before its hold ends is cancelled by the sweeper like an unpaid one", async () => {
  const { p, waiting } = await waitingOrder(3);
  await holdEnds(waiting._id, sql`now() - interval '1 second'`);
  // The buyer's email, as the order mail would queue it (a recording mailer stands in for the
  // outbox: the sweeper here is not the app's job).
  const queued: { to: string; text: string }[] = [];
  const sweeper = {
    cancelExpired: createExpireHolds(
      createInventory(t.database.db),
      createOrderMail(
        {
          sendIn: async (_tx, mail) => void queued.push({ to: mail.to, text: mail.text }),
          // Only the order path queues this way; nothing is placed through this notifier.
          queueSql: () => Promise.reject(new Error("no order is placed here")),
        },
        "http://store.test",
      ),
    ),
  };
  expect(await sweeper.cancelExpired()).toBeGreaterThanOrEqual(1);
  expect(await stockOf(p.id)).toBe(100);
  expect(queued.find((m) => m.text.includes(waiting.number))?.text).toContain(
    "was not approved by your company's owners before its hold ended",
  );
  const late = await decide(owner, waiting._id, "approve");
  expect(late.statusCode).toBe(409);
  expect(late.json().message).toBe(approvalMessages.notAwaiting("cancelled"));
});

test("the buyer may withdraw (delete) an order awaiting approval; its stock comes back", async () => {
  const { p, waiting } = await waitingOrder(3);
  const del = await call(buyer, "DELETE", `/api/orders/${waiting._id}`);
  expect(del.statusCode).toBe(200);
  expect(await stockOf(p.id)).toBe(100);
  expect((await decide(owner, waiting._id, "approve")).statusCode).toBe(404);
});

test("the approvals list is searched by part, part number, order number, buyer and company; wildcards are literal", async () => {
  await setLimits(buyer, { orderLimit: 100, monthlyLimit: null });
  const brake = await insertProduct(t.database.db, {
    name: `Searchable brake drum ${process.pid}`,
    priceCents: 5000,
    minimumOrder: 1,
  });
  const hose = await insertProduct(t.database.db, { priceCents: 5000, minimumOrder: 1 });
  const first = await order(buyer, brake.id, 3);
  const second = await order(buyer, hose.id, 3);
  expect([first.status, second.status]).toEqual(["awaiting_approval", "awaiting_approval"]);
  const search = async (q: string) => {
    const res = await call(owner, "GET", `/api/approvals?limit=100&q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json() as { orderId: string }[]).map((a) => a.orderId);
    expect(Number(res.headers["x-total-count"])).toBe(ids.length);
    return ids;
  };
  expect(await search("searchable BRAKE")).toEqual([first._id]);
  expect(await search(hose.partNumber!.toLowerCase())).toEqual([second._id]);
  expect(await search(`#${ref(second._id)}`)).toEqual([second._id]);
  // By the number people read, with or without its prefix.
  expect(await search(second.number)).toEqual([second._id]);
  expect(await search(second.number.replace("PW-", ""))).toEqual([second._id]);
  const byBuyer = await search(buyer.email);
  expect(byBuyer).toEqual(expect.arrayContaining([first._id, second._id]));
  // The admin searches every company's, by company name too.
  const company = (await call(admin, "GET", `/api/companies/${companyId}`)).json() as {
    name: string;
  };
  const byCompany = await call(
    admin,
    "GET",
    `/api/approvals?limit=100&q=${encodeURIComponent(company.name)}`,
  );
  expect(byCompany.json().map((a: { orderId: string }) => a.orderId)).toEqual(
    expect.arrayContaining([first._id, second._id]),
  );
  expect(await search("%")).toEqual([]);
  expect(await search("no such thing at all")).toEqual([]);
  const tooLong = await call(owner, "GET", `/api/approvals?q=${"x".repeat(101)}`);
  expect(tooLong.statusCode).toBe(400);
  for (const o of [first, second])
    expect((await decide(owner, o._id, "decline")).statusCode).toBe(200);
});
