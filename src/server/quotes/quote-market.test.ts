import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { signUpVerified, type TestAccount } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { availableQuantityOf, insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { addGermanVat, BERLIN_SHIP_TO, changeMarket } from "../../../tests/support/markets";
import { storeForTests } from "../../../tests/support/store";
import { companyWithBuyer, setOrderLimit, type Member } from "../../../tests/support/trade";
import type { Market } from "../../contract/markets";
import { quoteMessages, type Quote } from "../../contract/quotes";
import { cartItems } from "../cart/tables";
import { orders } from "../orders/tables";
import { quotes } from "./tables";

/**
 * Quotes in the buyer's market (docs/quotes.md "In the buyer's market"), with MARKET_CHOICE on:
 * a quote asked in Europe is in EUR at the market's rate then, priced by the admin in EUR, and
 * accepted as an EUR order at those prices and that rate (a later change of the rate changes
 * nothing of it); a destination in another market is refused in words, nothing written; the
 * money limits compare the order brought back to the store's currency. Europe's VAT display is
 * off here (company buyers see net prices anyway). In the default market (US), quotes.test.ts.
 */

const BERLIN = BERLIN_SHIP_TO;

let europe: Market;
let company: { id: string; owner: Member; buyer: Member };
/** `who` shopping in the market `code` (the `market` cookie, as the picker leaves it). */
const inMarket = (who: TestAccount, code: string) => ({ cookie: `${who.cookie}; market=${code}` });

/** Europe as the admin's form sends it, its VAT display off unless `changes` turn it on. */
const changeEurope = (changes: { rate?: number; pricesIncludeTax?: boolean }) =>
  changeMarket(t.app, admin, europe, { pricesIncludeTax: false, ...changes });

const { t, call, admin } = storeForTests({
  admin: "quote-market-admin@example.com",
  shipsToTestAddress: true,
  env: { MARKET_CHOICE: "true" },
});
beforeAll(async () => {
  const markets = (await call(admin, "GET", "/api/markets")).json<Market[]>();
  europe = markets.find((m) => m.code === "EU")!;
  expect((await changeEurope({})).statusCode).toBe(200);
  const zone = await call(admin, "POST", "/api/shipping-zones", {
    name: "Germany",
    countries: ["DE"],
    methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 7.5 }],
  });
  expect(zone.statusCode).toBe(201);
  company = await companyWithBuyer(t.app, admin);
});

/** A fresh $25.86 part (€23.79 at 0.92), 100 on sale. */
const part = () =>
  insertProduct(t.database.db, { priceCents: 2586, minimumOrder: 1, availableQuantity: 100 });

/** `who`'s cart of `qty` × `productId` asked as a quote; the cart emptied after. */
async function requestQuote(who: { cookie: string }, productId: string, qty: number) {
  expect((await call(who, "PUT", `/api/cart/items/${productId}`, { qty })).statusCode).toBe(200);
  const res = await call(who, "POST", "/api/quotes", { note: "Fleet" });
  expect(res.statusCode, res.body).toBe(201);
  await t.database.db.delete(cartItems).where(sql`true`);
  return res.json<Quote>();
}

const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600_000).toISOString();

async function sendQuote(quote: Quote, unitPrice: number) {
  const res = await call(admin, "POST", `/api/quotes/${quote.id}/send`, {
    lines: quote.lines.map((l) => ({ productId: l.productId, unitPrice })),
    expiresAt: inAWeek(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Quote>();
}

const acceptTo = (who: TestAccount, id: string, shipTo: typeof BERLIN, expectedTotal?: number) =>
  call(who, "POST", `/api/quotes/${id}/accept`, {
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    shipTo,
    ...(expectedTotal === undefined ? {} : { expectedTotal }),
  });

const ordersOf = (userId: string) =>
  t.database.db
    .select({ currency: orders.currency, rate: sql<string>`${orders.exchangeRate}::text` })
    .from(orders)
    .where(eq(orders.userId, userId));

describe("a quote in the market it was asked in", () => {
  test("asked in Europe: EUR at 0.92, priced in EUR, accepted as an EUR order at those prices and that rate", async () => {
    const { buyer } = company;
    const p = await part();
    const q = await requestQuote(inMarket(buyer, "EU"), p.id, 2);
    // $25.86 × 0.92 = €23.79: the price the buyer saw in Europe.
    expect(q).toMatchObject({ currency: "EUR", status: "requested" });
    expect(q.lines).toMatchObject([{ qty: 2, seenPrice: 23.79 }]);
    expect(q).not.toHaveProperty("pricesIncludeTax");
    const [kept] = await t.database.db
      .select({
        currency: quotes.currency,
        rate: sql<string>`${quotes.exchangeRate}::text`,
        market: quotes.marketCode,
        rounding: quotes.rounding,
      })
      .from(quotes)
      .where(eq(quotes.id, q.id));
    expect(kept).toEqual({ currency: "EUR", rate: "0.920000", market: "EU", rounding: "cent" });
    // The admin reads it in EUR (whatever their own market) and prices it in EUR.
    expect((await call(admin, "GET", `/api/quotes/${q.id}`)).json()).toMatchObject({
      currency: "EUR",
      lines: [{ seenPrice: 23.79 }],
    });
    const sent = await sendQuote(q, 20);
    expect(sent).toMatchObject({ currency: "EUR", total: 40, lines: [{ quotedPrice: 20 }] });
    const mail = await waitForMail(t.app, buyer.email, new RegExp(`quote ${q.reference} is ready`));
    expect(mail.text).toContain("€40.00");
    expect(mail.text).not.toContain("$");

    // Europe's rate changes after the quote was asked: the quote keeps its own (0.92).
    expect((await changeEurope({ rate: 0.5 })).statusCode).toBe(200);
    try {
      // In the store's currency, as the buyer shops now: still the quote's EUR.
      expect((await call(buyer, "GET", `/api/quotes/${q.id}`)).json()).toMatchObject({
        currency: "EUR",
        total: 40,
      });
      // Germany's $7.50 shipping at the quote's 0.92 is €6.90 (at 0.5 it would be €3.75).
      const total = await call(buyer, "POST", `/api/quotes/${q.id}/total`, { shipTo: BERLIN });
      expect(total.statusCode, total.body).toBe(200);
      expect(total.json()).toMatchObject({ subtotal: 40, shipping: 6.9, total: 46.9 });

      // To Oregon (the default market's): refused in words, nothing written.
      const stock = (await availableQuantityOf(t.database.db, p.id))!;
      const refused = await acceptTo(buyer, q.id, TEST_SHIP_TO);
      expect(refused.statusCode, refused.body).toBe(422);
      const words = quoteMessages.otherMarket("EUR", "Europe");
      expect(words).toBe(
        "This quote is in EUR (Europe): deliver it to a country of that market or ask for a new quote",
      );
      expect(refused.json()).toMatchObject({ message: words, fields: { addressId: words } });
      const toOregon = await call(buyer, "POST", `/api/quotes/${q.id}/total`, {
        shipTo: TEST_SHIP_TO,
      });
      expect(toOregon.json()).toMatchObject({ message: words });
      expect(await ordersOf(buyer.id)).toEqual([]);
      expect(await availableQuantityOf(t.database.db, p.id)).toBe(stock);
      expect((await call(buyer, "GET", `/api/quotes/${q.id}`)).json()).toMatchObject({
        status: "sent",
        orderId: null,
      });

      // To Berlin: an EUR order at the quoted €20.00, at the quote's rate.
      const accepted = await acceptTo(buyer, q.id, BERLIN, 46.9);
      expect(accepted.statusCode, accepted.body).toBe(201);
      expect(accepted.json()).toMatchObject({
        quote: { status: "accepted", currency: "EUR" },
        order: {
          currency: "EUR",
          total: 46.9,
          items: [{ productId: p.id, qty: 2, unitPrice: 20 }],
        },
      });
      expect(await ordersOf(buyer.id)).toEqual([{ currency: "EUR", rate: "0.920000" }]);
      expect(await availableQuantityOf(t.database.db, p.id)).toBe(stock - 2);
    } finally {
      expect((await changeEurope({ rate: 0.92 })).statusCode).toBe(200);
    }
  });

  test("the per-order limit, set in USD, compares the EUR order brought back: €46.90 is $50.98, over $50.50", async () => {
    const { id, owner, buyer } = await companyWithBuyer(t.app, admin);
    expect((await setOrderLimit(t.app, owner, id, buyer.id, 50.5)).statusCode).toBe(200);
    const p = await part();
    const q = await requestQuote(inMarket(buyer, "EU"), p.id, 2);
    await sendQuote(q, 20);
    const accepted = await acceptTo(buyer, q.id, BERLIN, 46.9);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({
      order: { currency: "EUR", total: 46.9, status: "awaiting_approval" },
    });
  });

  test("asked in the default market with MARKET_CHOICE on: USD at rate 1, refused to Germany, ordered to Oregon", async () => {
    const { buyer } = await companyWithBuyer(t.app, admin);
    const p = await part();
    const q = await requestQuote(buyer, p.id, 1);
    expect(q).toMatchObject({ currency: "USD", lines: [{ seenPrice: 25.86 }] });
    const [kept] = await t.database.db
      .select({ market: quotes.marketCode, rate: sql<string>`${quotes.exchangeRate}::text` })
      .from(quotes)
      .where(eq(quotes.id, q.id));
    expect(kept).toEqual({ market: null, rate: "1.000000" });
    await sendQuote(q, 24);
    const refused = await acceptTo(buyer, q.id, BERLIN);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message).toBe(quoteMessages.otherMarket("USD", "United States"));
    const accepted = await acceptTo(buyer, q.id, TEST_SHIP_TO);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({
      order: { currency: "USD", items: [{ unitPrice: 24 }] },
    });
    expect(await ordersOf(buyer.id)).toEqual([{ currency: "USD", rate: "1.000000" }]);
  });

  // Last: Germany's VAT from here on would be added to the trade buyers' orders above.
  test("a consumer's quote in Europe with VAT shown: gross prices kept, accepted gross with the VAT contained", async () => {
    expect((await changeEurope({ pricesIncludeTax: true })).statusCode).toBe(200);
    const vat = await addGermanVat(t.app, admin);
    expect(vat.statusCode, vat.body).toBe(201);
    const driver = await signUpVerified(t);
    const p = await part();
    // Chosen by Germany: its 19 %. $25.86 is €23.79 net, €28.31 with VAT.
    const q = await requestQuote(inMarket(driver, "DE"), p.id, 2);
    expect(q).toMatchObject({
      currency: "EUR",
      pricesIncludeTax: true,
      taxRate: 19,
      lines: [{ seenPrice: 28.31 }],
    });
    await sendQuote(q, 30);
    // €30.00 × 2 gross, shipping's $7.50 → €6.90 → €8.21 gross; the VAT is contained, not added.
    const total = await call(driver, "POST", `/api/quotes/${q.id}/total`, { shipTo: BERLIN });
    expect(total.json()).toMatchObject({
      subtotal: 60,
      shipping: 8.21,
      total: 68.21,
      pricesIncludeTax: true,
      taxRate: 19,
    });
    const accepted = await acceptTo(driver, q.id, BERLIN, 68.21);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({
      order: {
        currency: "EUR",
        pricesIncludeTax: true,
        total: 68.21,
        items: [{ unitPrice: 30, lineTotal: 60 }],
      },
    });
    expect(await ordersOf(driver.id)).toEqual([{ currency: "EUR", rate: "0.920000" }]);
  });
});
