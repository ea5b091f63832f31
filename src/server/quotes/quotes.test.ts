import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { auditRowsOf } from "../../../tests/support/audit";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { availableQuantityOf, insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { TEST_SHIP_TO, AUSTIN_ADDRESS, texasSalesTax } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import {
  companyWithBuyerAndViewer,
  createCompany,
  createPriceList,
  joinCompany,
} from "../../../tests/support/trade";
import { quoteMessages, type Quote, type QuoteDetail } from "../../contract/quotes";
import { cartItems } from "../cart/tables";
import { orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { quotes } from "./tables";

/**
 * Quotes through the API (docs/quotes.md): a request from the cart, the admin's prices and
 * expiry, acceptance as an order at the quoted prices (stock, expiry, twice), decline, the thread,
 * and who may do what: buyer / owner / viewer / another company's buyer / no company / admin.
 */

type Member = TestAccount & { id: string };
let owner: Member;
let buyer: Member;
let viewer: Member;
let otherBuyer: Member;
let loner: TestAccount;

const { t, call, admin } = storeForTests({
  admin: "quotes-admin@example.com",
  shipsToTestAddress: true,
});
beforeAll(async () => {
  ({ owner, buyer, viewer } = await companyWithBuyerAndViewer(t.app, admin));
  const other = (await createCompany(t.app, admin)).id;
  otherBuyer = await joinCompany(t.app, admin, other, "buyer");
  loner = await signUp(t.app, { email: "quotes-loner@example.com" });
});

/** A fresh $50.00 part with `stock` on sale. */
const part = (stock = 100, priceCents = 5000) =>
  insertProduct(t.database.db, { priceCents, minimumOrder: 1, availableQuantity: stock });

async function fillCart(who: TestAccount, lines: { productId: string; qty: number }[]) {
  for (const l of lines) {
    const res = await call(who, "PUT", `/api/cart/items/${l.productId}`, { qty: l.qty });
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function requestQuote(who: TestAccount, lines: { productId: string; qty: number }[]) {
  await fillCart(who, lines);
  const res = await call(who, "POST", "/api/quotes", { note: "Fleet of 12 vans" });
  expect(res.statusCode, res.body).toBe(201);
  // Cleared here so the next request starts from the lines it names.
  await t.database.db.delete(cartItems).where(sql`true`);
  return res.json() as Quote;
}

const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600_000).toISOString();

async function sendQuote(quote: Quote, unitPrice = 40) {
  const res = await call(admin, "POST", `/api/quotes/${quote.id}/send`, {
    lines: quote.lines.map((l) => ({ productId: l.productId, unitPrice })),
    expiresAt: inAWeek(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Quote;
}

const accept = (who: TestAccount, id: string) =>
  call(who, "POST", `/api/quotes/${id}/accept`, {
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    shipTo: TEST_SHIP_TO,
  });

const stockOf = (id: string) => availableQuantityOf(t.database.db, id);

describe("requesting", () => {
  test("a buyer's cart becomes a requested quote with the prices they saw; the cart stays", async () => {
    const a = await part(100, 5000);
    const b = await part(100, 1234);
    const list = await createPriceList(t.app, admin, [{ productId: a.id, unitPrice: 45 }]);
    const company = (await createCompany(t.app, admin, { priceListId: list.id })).id;
    const listBuyer = await joinCompany(t.app, admin, company, "buyer");
    await fillCart(listBuyer, [
      { productId: a.id, qty: 3 },
      { productId: b.id, qty: 2 },
    ]);
    const res = await call(listBuyer, "POST", "/api/quotes", { note: "For the spring service" });
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json() as Quote;
    expect(q).toMatchObject({ status: "requested", note: "For the spring service", total: null });
    expect(q.lines).toEqual([
      expect.objectContaining({ productId: a.id, qty: 3, seenPrice: 45, quotedPrice: null }),
      expect.objectContaining({ productId: b.id, qty: 2, seenPrice: 12.34, quotedPrice: null }),
    ]);
    const cart = await call(listBuyer, "GET", "/api/cart");
    expect(cart.json().lines).toHaveLength(2);
  });

  test("an empty cart, a viewer, an admin, a note too long and a signed-out caller are refused", async () => {
    expect((await call(loner, "POST", "/api/quotes", { note: "" })).json()).toMatchObject({
      message: quoteMessages.emptyCart,
    });
    const p = await part();
    await fillCart(viewer, [{ productId: p.id, qty: 1 }]);
    const v = await call(viewer, "POST", "/api/quotes", {});
    expect(v.statusCode).toBe(403);
    expect(v.json().message).toBe(quoteMessages.viewerCannotRequest);
    expect((await call(admin, "POST", "/api/quotes", {})).statusCode).toBe(403);
    await fillCart(loner, [{ productId: p.id, qty: 1 }]);
    const long = await call(loner, "POST", "/api/quotes", { note: "x".repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain(quoteMessages.noteTooLong);
    expect((await call(null, "POST", "/api/quotes", {})).statusCode).toBe(401);
    await t.database.db.delete(cartItems).where(sql`true`);
  });
});

describe("pricing and sending", () => {
  test("the admin prices every line and sets the expiry: sent, emailed, audited", async () => {
    const p = await part();
    const q = await requestQuote(buyer, [{ productId: p.id, qty: 4 }]);
    const sent = await sendQuote(q, 38.5);
    expect(sent).toMatchObject({ status: "sent", total: 154 });
    expect(sent.lines[0]).toMatchObject({ quotedPrice: 38.5, lineTotal: 154 });
    const mail = await waitForMail(t.app, buyer.email, new RegExp(`quote ${q.reference} is ready`));
    expect(mail.text).toContain("$154.00");
    expect(mail.links.some((l) => l.endsWith(`/dashboard/quotes/${q.id}`))).toBe(true);
    const audit = await auditRowsOf(t.database.db, "quote.send", q.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.summary).toContain(buyer.email);
    // Sending twice is refused.
    const again = await call(admin, "POST", `/api/quotes/${q.id}/send`, {
      lines: [{ productId: p.id, unitPrice: 1 }],
      expiresAt: inAWeek(),
    });
    expect(again.statusCode).toBe(409);
  });

  test("prices must be more than 0 and given for every line; the expiry must be in the future", async () => {
    const a = await part();
    const b = await part();
    const q = await requestQuote(buyer, [
      { productId: a.id, qty: 1 },
      { productId: b.id, qty: 1 },
    ]);
    const send = (body: object) => call(admin, "POST", `/api/quotes/${q.id}/send`, body);
    const zero = await send({
      lines: [
        { productId: a.id, unitPrice: 0 },
        { productId: b.id, unitPrice: 5 },
      ],
      expiresAt: inAWeek(),
    });
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain(quoteMessages.pricePositive);
    const fraction = await send({
      lines: [
        { productId: a.id, unitPrice: 1.005 },
        { productId: b.id, unitPrice: 5 },
      ],
      expiresAt: inAWeek(),
    });
    expect(fraction.statusCode).toBe(400);
    const missing = await send({
      lines: [{ productId: a.id, unitPrice: 5 }],
      expiresAt: inAWeek(),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(quoteMessages.priceRequired);
    const stranger = await send({
      lines: [
        { productId: a.id, unitPrice: 5 },
        { productId: b.id, unitPrice: 5 },
        { productId: (await part()).id, unitPrice: 5 },
      ],
      expiresAt: inAWeek(),
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toBe(quoteMessages.unknownLine);
    const past = await send({
      lines: [
        { productId: a.id, unitPrice: 5 },
        { productId: b.id, unitPrice: 5 },
      ],
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(quoteMessages.expiryInPast);
    // Nothing was written by the refusals.
    const still = (await call(admin, "GET", `/api/quotes/${q.id}`)).json() as QuoteDetail;
    expect(still.status).toBe("requested");
    expect(still.lines.every((l) => l.quotedPrice === null)).toBe(true);
  });
});

describe("accepting and declining", () => {
  test("accepting places one unpaid order at the quoted prices, takes the stock; twice is refused", async () => {
    const a = await part(50, 5000);
    const b = await part(50, 2000);
    const q = await requestQuote(buyer, [
      { productId: a.id, qty: 5 },
      { productId: b.id, qty: 2 },
    ]);
    await sendQuote(q, 31.25);
    const res = await accept(buyer, q.id);
    expect(res.statusCode, res.body).toBe(201);
    const { order, quote } = res.json();
    expect(quote).toMatchObject({ status: "accepted", orderId: order._id, canDecide: false });
    expect(order.status).toBe("unpaid");
    expect(order.items.map((i: { unitPrice: number }) => i.unitPrice)).toEqual([31.25, 31.25]);
    expect(order.subtotal).toBe(218.75);
    expect(await stockOf(a.id)).toBe(45);
    expect(await stockOf(b.id)).toBe(48);
    const twice = await accept(buyer, q.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(quoteMessages.alreadyAccepted);
    const placed = await t.database.db.select().from(orders).where(eq(orders.userId, buyer.id));
    expect(placed.filter((o) => o.id === order._id)).toHaveLength(1);
    expect(await stockOf(a.id)).toBe(45);
    // Two acceptances at once: one order.
    const c = await part(50);
    const q2 = await requestQuote(owner, [{ productId: c.id, qty: 1 }]);
    await sendQuote(q2);
    const both = await Promise.all([accept(owner, q2.id), accept(owner, q2.id)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await stockOf(c.id)).toBe(49);
  });

  test("the quoted prices come from the quote: a price sent by the client is refused", async () => {
    const p = await part();
    const q = await requestQuote(buyer, [{ productId: p.id, qty: 1 }]);
    await sendQuote(q, 10);
    const res = await call(buyer, "POST", `/api/quotes/${q.id}/accept`, {
      phonrNo: "5550100",
      Address: "1 Fleet Yard",
      unitPrice: 0.01,
    });
    expect(res.statusCode).toBe(400);
  });

  test("an expired quote cannot be accepted: 409, and it reads expired", async () => {
    const p = await part();
    const q = await requestQuote(buyer, [{ productId: p.id, qty: 1 }]);
    await sendQuote(q);
    await t.database.db
      .update(quotes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(quotes.id, q.id));
    const res = await accept(buyer, q.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(quoteMessages.expired);
    expect((await call(buyer, "GET", `/api/quotes/${q.id}`)).json().status).toBe("expired");
    expect(await stockOf(p.id)).toBe(100);
    expect((await call(buyer, "POST", `/api/quotes/${q.id}/decline`)).statusCode).toBe(409);
  });

  test("stock short at acceptance: 409 naming the part, nothing written", async () => {
    const a = await part(10);
    const b = await part(2);
    const q = await requestQuote(buyer, [
      { productId: a.id, qty: 3 },
      { productId: b.id, qty: 2 },
    ]);
    await sendQuote(q);
    await t.database.db.update(products).set({ availableQuantity: 1 }).where(eq(products.id, b.id));
    const res = await accept(buyer, q.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(quoteMessages.stockShort(b.name, 1));
    expect(await stockOf(a.id)).toBe(10);
    expect((await call(buyer, "GET", `/api/quotes/${q.id}`)).json()).toMatchObject({
      status: "sent",
      orderId: null,
    });
  });

  test("a requested (not yet sent) quote cannot be accepted; declining a sent one", async () => {
    const p = await part();
    const q = await requestQuote(buyer, [{ productId: p.id, qty: 1 }]);
    const early = await accept(buyer, q.id);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(quoteMessages.notSent("requested"));
    await sendQuote(q);
    const declined = await call(buyer, "POST", `/api/quotes/${q.id}/decline`);
    expect(declined.statusCode).toBe(200);
    expect(declined.json().status).toBe("declined");
    expect((await accept(buyer, q.id)).statusCode).toBe(409);
  });
});

describe("who may do what", () => {
  test("buyer / owner / viewer / another company's buyer / no company / admin", async () => {
    const p = await part();
    const q = await requestQuote(buyer, [{ productId: p.id, qty: 1 }]);
    await sendQuote(q);
    const get = (who: TestAccount) => call(who, "GET", `/api/quotes/${q.id}`);
    expect((await get(buyer)).json().canDecide).toBe(true);
    expect((await get(owner)).json().canDecide).toBe(true);
    const seen = (await get(viewer)).json();
    expect(seen).toMatchObject({ canDecide: false, canWrite: false });
    expect((await get(otherBuyer)).statusCode).toBe(404);
    expect((await get(loner)).statusCode).toBe(404);
    expect((await get(admin)).statusCode).toBe(200);
    // Lists: the company's for its members, none for another company.
    const ids = async (who: TestAccount) =>
      ((await call(who, "GET", "/api/quotes?limit=100")).json() as Quote[]).map((x) => x.id);
    expect(await ids(viewer)).toContain(q.id);
    expect(await ids(otherBuyer)).not.toContain(q.id);
    expect(await ids(loner)).not.toContain(q.id);
    expect(await ids(admin)).toContain(q.id);
    // Deciding: a viewer may not; another company is told it does not exist; an admin does not.
    const v = await accept(viewer, q.id);
    expect(v.statusCode).toBe(403);
    expect((await call(viewer, "POST", `/api/quotes/${q.id}/decline`)).statusCode).toBe(403);
    expect((await accept(otherBuyer, q.id)).statusCode).toBe(404);
    expect((await call(otherBuyer, "POST", `/api/quotes/${q.id}/decline`)).statusCode).toBe(404);
    expect((await accept(admin, q.id)).statusCode).toBe(403);
    // A customer cannot send.
    const s = await call(buyer, "POST", `/api/quotes/${q.id}/send`, {
      lines: [{ productId: p.id, unitPrice: 1 }],
      expiresAt: inAWeek(),
    });
    expect(s.statusCode).toBe(403);
    // The owner of the company accepts the buyer's quote.
    const res = await accept(owner, q.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().order.orderEmail).toBe(owner.email);
  });

  test("a customer without a company has their own quotes only", async () => {
    const p = await part();
    const q = await requestQuote(loner, [{ productId: p.id, qty: 2 }]);
    const ids = ((await call(loner, "GET", "/api/quotes")).json() as Quote[]).map((x) => x.id);
    expect(ids).toEqual([q.id]);
    expect((await call(buyer, "GET", `/api/quotes/${q.id}`)).statusCode).toBe(404);
    await sendQuote(q, 12);
    expect((await accept(loner, q.id)).statusCode).toBe(201);
  });
});

describe("the message thread", () => {
  test("both sides write; shown in order; length-limited; viewers and strangers may not", async () => {
    const p = await part();
    const q = await requestQuote(buyer, [{ productId: p.id, qty: 1 }]);
    const post = (who: TestAccount, body: string) =>
      call(who, "POST", `/api/quotes/${q.id}/messages`, { body });
    expect((await post(buyer, "Can you do 10% off?")).statusCode).toBe(201);
    expect((await post(admin, "We can do 8%.")).statusCode).toBe(201);
    const last = await post(owner, "Deal.");
    expect(last.statusCode).toBe(201);
    expect((last.json() as QuoteDetail).messages.map((m) => [m.side, m.body])).toEqual([
      ["customer", "Can you do 10% off?"],
      ["store", "We can do 8%."],
      ["customer", "Deal."],
    ]);
    expect((await post(viewer, "Hi")).statusCode).toBe(403);
    expect((await post(otherBuyer, "Hi")).statusCode).toBe(404);
    const long = await post(buyer, "x".repeat(2001));
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain(quoteMessages.messageTooLong);
    expect((await post(buyer, "   ")).statusCode).toBe(400);
    const audit = await auditRowsOf(t.database.db, "quote.message", q.id);
    expect(audit).toHaveLength(1);
  });

  test("the admin's list searches and filters by status, paged", async () => {
    const p = await part();
    const q = await requestQuote(otherBuyer, [{ productId: p.id, qty: 1 }]);
    const list = async (query: string) => {
      const res = await call(admin, "GET", `/api/quotes?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return { ids: (res.json() as Quote[]).map((x) => x.id), total: res.headers["x-total-count"] };
    };
    expect((await list(`q=${otherBuyer.email}`)).ids).toEqual([q.id]);
    // By its number as people write it: "Q-10001", "q-10001", "10001".
    expect(q.reference).toMatch(/^Q-\d{5,}$/);
    expect((await list(`q=${q.reference}`)).ids).toEqual([q.id]);
    expect((await list(`q=${q.reference.toLowerCase()}`)).ids).toEqual([q.id]);
    expect((await list(`q=${q.reference.slice(2)}`)).ids).toContain(q.id);
    expect((await list("status=requested&limit=100")).ids).toContain(q.id);
    expect((await list("status=accepted&limit=100")).ids).not.toContain(q.id);
    const page = await list("limit=1&offset=0");
    expect(page.ids).toHaveLength(1);
    expect(Number(page.total)).toBeGreaterThan(1);
  });
});

// Issue 27's rule at the quote's door too: the buyer confirms the total they were shown (quoted
// lines, shipping and tax), and a different total orders nothing.
test("accepting confirms the total shown with shipping and tax: a stale total is 409 with the new figures, nothing ordered", async () => {
  const zone = await call(admin, "POST", "/api/shipping-zones", {
    name: "Quote land",
    countries: ["US"],
    regions: ["TX"],
    methods: [{ name: "Courier", estimate: "2 days", kind: "flat", price: 9.95 }],
  });
  expect(zone.statusCode, zone.body).toBe(201);
  const rate = await texasSalesTax(t.app, admin, 6.25);
  expect(rate.statusCode, rate.body).toBe(201);
  const me = await signUp(t.app, { email: "quotes-texan@example.com" });
  const home = await call(me, "POST", "/api/user/addresses", {
    ...AUSTIN_ADDRESS,
    name: "Tex Fleet",
  });
  expect(home.statusCode, home.body).toBe(201);
  const p = await part();
  const quote = await sendQuote(await requestQuote(me, [{ productId: p.id, qty: 2 }]), 40);

  const shown = await call(me, "POST", `/api/quotes/${quote.id}/total`, {});
  expect(shown.statusCode, shown.body).toBe(200);
  const total = shown.json();
  expect(total).toMatchObject({ subtotal: 80, shipping: 9.95, shippingMethod: "Courier" });
  expect(total.tax).toBeGreaterThan(0);
  expect(total.total).toBeCloseTo(total.subtotal + total.shipping + total.tax, 2);

  // The lines alone (what the quote's table shows) are not the total: nothing is ordered.
  const stale = await call(me, "POST", `/api/quotes/${quote.id}/accept`, {
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    expectedTotal: 80,
  });
  expect(stale.statusCode, stale.body).toBe(409);
  expect(stale.json()).toMatchObject({
    error: "total_changed",
    fields: { total: String(total.total), shipping: "9.95", tax: String(total.tax) },
  });
  expect(await stockOf(p.id)).toBe(100);
  expect((await call(me, "GET", `/api/quotes/${quote.id}`)).json().status).toBe("sent");

  const accepted = await call(me, "POST", `/api/quotes/${quote.id}/accept`, {
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    expectedTotal: total.total,
  });
  expect(accepted.statusCode, accepted.body).toBe(201);
  expect(accepted.json().order.total).toBe(total.total);
  // Once accepted, there is no total to show: the quote is no longer open.
  expect((await call(me, "POST", `/api/quotes/${quote.id}/total`, {})).statusCode).toBe(409);
});
