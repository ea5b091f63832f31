import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { signUpVerified } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import type { Market } from "../../contract/markets";
import { partSlug } from "../../contract/paths";
import { DeliveryCountries } from "./delivery-countries";
import { KeptRead } from "../changes/kept-read";
import { MarketCache } from "./market-cache";
import { createRequestMarkets, marketCookie, marketQuery } from "./request-market";

/**
 * The doors in the request's market (docs/pricing.md "The market chosen"), with MARKET_CHOICE
 * on: `?market=` remembered in the `market` cookie, then the cookie, then the customer's default
 * delivery country; the same cart priced the same on the product's price, the cart, its quote,
 * the one-product order's total and both orders. Europe at 0.92, its VAT display off here (the
 * currency alone: VAT-inclusive prices are tested in checkout/decide-vat.test.ts).
 */
/** A German delivery address: the checkout prices in Europe (its delivery country's market). */
const BERLIN = { ...TEST_SHIP_TO, city: "Berlin", region: "", postalCode: "10115", country: "DE" };

describe("the doors in the market the buyer chose", () => {
  let europe: Market;
  let partId: string;
  let slug: string;
  const send = (
    method: "GET" | "POST" | "PUT" | "PATCH",
    url: string,
    cookie: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: cookie ? { cookie } : {}, payload });
  const withMarket = (who: { cookie: string }, code: string) => `${who.cookie}; market=${code}`;
  const priceOf = async (cookie: string, query = "") =>
    (await send("GET", `/api/products/${partId}/price${query}`, cookie)).json<{
      currency: string;
      yourPrice: number;
    }>();

  /** Europe as the admin's form sends it, its VAT display off, with `changes`. */
  const changeEurope = (changes: { rate?: number }) =>
    send("PATCH", `/api/markets/${europe.id}`, admin.cookie, {
      code: europe.code,
      name: europe.name,
      currency: europe.currency,
      countries: europe.countries,
      rate: europe.rate,
      rounding: europe.rounding,
      active: europe.active,
      pricesIncludeTax: false,
      ...changes,
    });

  const { t, admin } = storeForTests({
    admin: "market-doors-admin@example.com",
    shipsToTestAddress: true,
    env: { MARKET_CHOICE: "true" },
  });
  beforeAll(async () => {
    const markets: Market[] = (await send("GET", "/api/markets", admin.cookie)).json();
    europe = markets.find((m) => m.code === "EU")!;
    const changed = await changeEurope({});
    expect(changed.statusCode).toBe(200);
    const zone = await send("POST", "/api/shipping-zones", admin.cookie, {
      name: "Germany",
      countries: ["DE"],
      methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 7.5 }],
    });
    expect(zone.statusCode).toBe(201);
    const part = await insertProduct(t.database.db, { priceCents: 2586, minimumOrder: 1 });
    partId = part.id;
    slug = partSlug(part.partNumber, part.name).toLowerCase();
  });

  test("?market= sets the remembered cookie; the cookie then chooses; an unknown hint is passed over", async () => {
    // The site config tells the web to show the picker, and where a new address starts.
    expect((await send("GET", "/api/config", "")).json()).toMatchObject({
      marketChoice: true,
      storeCountry: "US",
    });
    const chosen = await send("GET", `/api/products/${partId}/price?market=eu`, "");
    expect(chosen.headers["set-cookie"]).toContain(
      "market=EU; Path=/; Max-Age=31536000; SameSite=Lax",
    );
    // $25.86 × 0.92 = €23.7912 → €23.79.
    expect(chosen.json()).toMatchObject({ currency: "EUR", listPrice: 23.79, yourPrice: 23.79 });
    // A country names its market.
    const byCountry = await send("GET", `/api/products/${partId}/price?market=DE`, "");
    expect(byCountry.headers["set-cookie"]).toContain(
      "market=EU; Path=/; Max-Age=31536000; SameSite=Lax",
    );
    expect(await priceOf("market=EU")).toMatchObject({ currency: "EUR", yourPrice: 23.79 });
    // ?market= comes before the cookie.
    expect(await priceOf("market=EU", "?market=US")).toMatchObject({
      currency: "USD",
      yourPrice: 25.86,
    });
    // A code or country in no market: passed over (no cookie; the cookie, else the default).
    const unknown = await send("GET", `/api/products/${partId}/price?market=XX`, "");
    expect(unknown.headers["set-cookie"]).toBeUndefined();
    expect(unknown.json()).toMatchObject({ currency: "USD", yourPrice: 25.86 });
    expect(await priceOf("market=EU", "?market=JP")).toMatchObject({ currency: "EUR" });
    expect(await priceOf("market=ZZ")).toMatchObject({ currency: "USD", yourPrice: 25.86 });
  });

  test("Europe: the same cart priced the same on the product's price, cart, quote, both totals and both orders", async () => {
    const buyer = await signUpVerified(t);
    const eu = withMarket(buyer, "EU");
    expect(await priceOf(eu)).toMatchObject({ currency: "EUR", yourPrice: 23.79 });
    const put = await send("PUT", `/api/cart/items/${partId}`, eu, { qty: 2 });
    expect(put.json()).toMatchObject({ currency: "EUR", subtotal: 47.58 });
    const cart = (await send("GET", "/api/cart", eu)).json<{ lines: unknown[] }>();
    expect(cart).toMatchObject({ currency: "EUR", subtotal: 47.58, total: 47.58 });
    expect(cart.lines).toMatchObject([{ unitPrice: 23.79, lineTotal: 47.58, notice: null }]);
    // The cart in the store's currency is the same cart: the seen price compares like with like.
    expect((await send("GET", "/api/cart", buyer.cookie)).json()).toMatchObject({
      currency: "USD",
      subtotal: 51.72,
      lines: [{ notice: null }],
    });
    // Germany's $7.50 shipping is €6.90.
    const germany = { estimate: { country: "DE", postalCode: "10115" } };
    expect((await send("POST", "/api/cart/quote", eu, germany)).json()).toMatchObject({
      currency: "EUR",
      subtotal: 47.58,
      shipping: 6.9,
      total: 54.48,
    });
    // The destination decides at checkout: to Oregon, the cart is priced in USD, and says so.
    const toSalem = { estimate: { country: "US", postalCode: TEST_SHIP_TO.postalCode } };
    expect((await send("POST", "/api/cart/quote", eu, toSalem)).json()).toMatchObject({
      currency: "USD",
      subtotal: 51.72,
      marketNotice: expect.stringContaining("priced in USD"),
    });
    const quote = (await send("POST", "/api/cart/quote", eu, germany)).json<{ total: number }>();
    expect(quote).not.toHaveProperty("marketNotice");
    const one = { productId: partId, orderQty: 2, shipTo: BERLIN };
    expect((await send("POST", "/api/orders/total", eu, one)).json()).toMatchObject({
      subtotal: 47.58,
      shipping: 6.9,
      total: 54.48,
    });
    // The one-product order by another buyer (an unpaid order of the part would refuse the cart's).
    const { id: driverId, ...other } = await signUpVerified(t);
    const driver = withMarket(other, "EU");
    const placedOne = await send("POST", "/api/orders", driver, {
      ...one,
      phonrNo: "5550100",
      Address: "1 Dock Road",
      expectedTotal: 54.48,
    });
    expect(placedOne.statusCode, placedOne.body).toBe(201);
    expect(placedOne.json()).toMatchObject({ order: { currency: "EUR", total: 54.48 } });
    const checkedOut = await send("POST", "/api/checkout", eu, {
      phonrNo: "5550100",
      Address: "1 Dock Road",
      shipTo: BERLIN,
      expectedTotal: quote.total,
    });
    expect(checkedOut.statusCode, checkedOut.body).toBe(201);
    expect(checkedOut.json()).toMatchObject({ order: { currency: "EUR", total: 54.48 } });
    const rates = await t.database.db.execute<{ currency: string; rate: string }>(
      sql`select currency, exchange_rate::text as rate from orders
           where user_id in (${buyer.id}, ${driverId})`,
    );
    expect(rates.rows).toEqual([
      { currency: "EUR", rate: "0.920000" },
      { currency: "EUR", rate: "0.920000" },
    ]);
  });

  test("the shared caches: the same URL gives the US visitor USD and the EU visitor EUR", async () => {
    const url = `/api/products?q=${encodeURIComponent("Test part")}&limit=100`;
    const listed = async (cookie: string) => {
      const res = await send("GET", url, cookie);
      const item = res
        .json<{ _id: string; price: number; currency: string }[]>()
        .find((p) => p._id === partId);
      return { item, etag: res.headers.etag };
    };
    const detail = async (cookie: string) =>
      (await send("GET", `/api/products/${partId}`, cookie)).json<object>();
    for (let round = 0; round < 2; round++) {
      // Asked twice each, in turn: the second round is answered from memory.
      const us = await listed("");
      const eu = await listed("market=EU");
      expect(us.item).toMatchObject({ price: 25.86, currency: "USD" });
      expect(eu.item).toMatchObject({ price: 23.79, currency: "EUR" });
      expect(eu.etag).not.toBe(us.etag);
      expect(await detail("")).toMatchObject({ price: 25.86, currency: "USD" });
      expect(await detail("market=EU")).toMatchObject({ price: 23.79, currency: "EUR" });
      expect(await detail("market=GB")).toMatchObject({ price: 20.43, currency: "GBP" });
      // A part's public page (its API answer) too.
      const part = async (cookie: string) =>
        (await send("GET", `/api/parts/${slug}`, cookie)).json<object>();
      expect(await part("")).toMatchObject({ price: 25.86, currency: "USD" });
      expect(await part("market=EU")).toMatchObject({ price: 23.79, currency: "EUR" });
    }
  });

  test("quick order, a saved list and Order again: shown in EUR, each cart line seen at its price", async () => {
    const account = await signUpVerified(t);
    const eu = withMarket(account, "EU");
    const part = await insertProduct(t.database.db, { priceCents: 2586, minimumOrder: 1 });
    const resolved = await send("POST", "/api/quick-order/resolve", eu, {
      lines: [{ number: part.partNumber, qty: "2" }],
    });
    expect(resolved.json()).toMatchObject({
      currency: "EUR",
      lines: [{ unitPrice: 23.79, lineTotal: 47.58 }],
    });
    const added = await send("POST", "/api/quick-order/add-to-cart", eu, {
      lines: [{ number: part.partNumber, qty: "2" }],
    });
    expect(added.json()).toMatchObject({
      currency: "EUR",
      cart: { currency: "EUR", subtotal: 47.58, lines: [{ notice: null }] },
    });
    const list = await send("POST", "/api/lists", eu, {
      name: "Brakes",
      items: [{ productId: part.id, qty: 3 }],
    });
    expect(list.json()).toMatchObject({ currency: "EUR", lines: [{ unitPrice: 23.79 }] });
    const fromList = await send(
      "POST",
      `/api/lists/${list.json<{ id: string }>().id}/add-to-cart`,
      eu,
    );
    // 2 + 3 of them, each seen at €23.79: no "price changed" notice.
    expect(fromList.json()).toMatchObject({
      cart: { currency: "EUR", subtotal: 118.95, lines: [{ qty: 5, notice: null }] },
    });
    const placed = await send("POST", "/api/checkout", eu, {
      phonrNo: "5550100",
      Address: "1 Dock Road",
      shipTo: BERLIN,
      expectedTotal: 125.85,
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json<{ order: { _id: string } }>().order._id;
    // Ordered again in Europe: the same €23.79, no price change said.
    const again = await send("POST", `/api/orders/${orderId}/reorder`, eu);
    expect(again.json()).toMatchObject({
      changes: [],
      cart: { currency: "EUR", subtotal: 118.95, lines: [{ notice: null }] },
    });
    // In the store's currency the EUR order's prices are not compared with today's USD ones.
    await send("PUT", `/api/cart/items/${part.id}`, account.cookie, { qty: 1 });
    expect(
      (await send("POST", `/api/orders/${orderId}/reorder`, account.cookie)).json(),
    ).toMatchObject({
      changes: [],
      cart: { currency: "USD" },
    });
  });

  test("a core deposit is the order's currency too: $10.00 is €9.20 on the cart and the order", async () => {
    const core = await insertProduct(t.database.db, {
      priceCents: 5000,
      minimumOrder: 1,
      coreDepositCents: 1000,
    });
    const buyer = withMarket(await signUpVerified(t), "EU");
    await send("PUT", `/api/cart/items/${core.id}`, buyer, { qty: 2 });
    // Two parts at €46.00 and their deposits at €9.20 each.
    const cart = (await send("GET", "/api/cart", buyer)).json<{ lines: unknown[] }>();
    expect(cart).toMatchObject({ currency: "EUR", subtotal: 92, coreDeposits: 18.4, total: 110.4 });
    expect(cart.lines).toMatchObject([{ unitPrice: 46, coreDeposit: 9.2 }]);
    const placed = await send("POST", "/api/checkout", buyer, {
      phonrNo: "5550100",
      Address: "1 Dock Road",
      shipTo: BERLIN,
      expectedTotal: 117.3,
    });
    expect(placed.statusCode, placed.body).toBe(201);
    // With Germany's €6.90 shipping.
    expect(placed.json()).toMatchObject({
      order: { currency: "EUR", total: 117.3, coreDeposits: 18.4 },
    });
  });

  test("at checkout the delivery country decides, and the quote says so", async () => {
    // A visitor in the default market asks for Germany: priced in EUR, with the notice.
    const toGermany = {
      items: [{ productId: partId, qty: 2 }],
      estimate: { country: "DE", postalCode: "10115" },
    };
    expect((await send("POST", "/api/cart/quote", "", toGermany)).json()).toMatchObject({
      currency: "EUR",
      subtotal: 47.58,
      shipping: 6.9,
      total: 54.48,
      marketNotice: "Delivery to Germany is priced in EUR (Europe): the totals below are in EUR",
    });
    // A customer in the default market orders to Berlin: the order is in EUR at the quote's total.
    const buyer = await signUpVerified(t);
    await send("PUT", `/api/cart/items/${partId}`, buyer.cookie, { qty: 2 });
    const placed = await send("POST", "/api/checkout", buyer.cookie, {
      phonrNo: "5550100",
      Address: "1 Dock Road",
      shipTo: BERLIN,
      expectedTotal: 54.48,
    });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json()).toMatchObject({ order: { currency: "EUR", total: 54.48 } });
  });

  test("signed in without a choice: the default delivery address's country chooses", async () => {
    const driver = await signUpVerified(t);
    expect(await priceOf(driver.cookie)).toMatchObject({ currency: "USD" });
    const address = await send("POST", "/api/user/addresses", driver.cookie, {
      ...TEST_SHIP_TO,
      city: "Berlin",
      region: "",
      postalCode: "10115",
      country: "DE",
      isDefault: true,
    });
    expect(address.statusCode).toBe(201);
    expect(await priceOf(driver.cookie)).toMatchObject({ currency: "EUR", yourPrice: 23.79 });
    // Their own choice comes first.
    expect(await priceOf(withMarket(driver, "US"))).toMatchObject({ currency: "USD" });
  });

  test("markets from memory: an admin's change answers at once, another process's by NOTIFY", async () => {
    const changed = await changeEurope({ rate: 0.9 });
    expect(changed.statusCode).toBe(200);
    // $25.86 × 0.9 = €23.274 → €23.27.
    expect(await priceOf("market=EU")).toMatchObject({ currency: "EUR", yourPrice: 23.27 });
    // Written as another process would: this one hears it through NOTIFY `markets`.
    await t.database.db.execute(sql`update markets set rate = 0.92 where code = 'EU'`);
    await expect.poll(async () => (await priceOf("market=EU")).yourPrice).toBe(23.79);
  });
});

test("MARKET_CHOICE off: every request is in the default market, the markets never read", async () => {
  let reads = 0;
  const cache = new MarketCache(async () => {
    reads += 1;
    return [];
  });
  const markets = createRequestMarkets({
    cache,
    choice: false,
    deliveryCountries: new DeliveryCountries({} as never),
    consumerRates: new KeptRead(async () => new Map()),
  });
  const req = { url: "/api/cart?market=EU", headers: { cookie: "market=EU" } };
  expect(await markets.of(req, "someone")).toBeUndefined();
  expect(await markets.cookieFor(req)).toBeNull();
  expect(await markets.forDelivery(req, "someone", "DE")).toEqual({
    market: undefined,
    notice: null,
  });
  expect(reads).toBe(0);
});

test("Europe named by its code: a signed-in customer's default delivery country in it gives its VAT, else the first country's", async () => {
  const market = (m: Partial<Market>) =>
    ({ rate: 1, rounding: "cent", active: true, isDefault: false, ...m }) as Market;
  const markets = createRequestMarkets({
    cache: new MarketCache(async () => [
      market({ code: "US", currency: "USD", countries: ["US"], isDefault: true }),
      market({ code: "EU", currency: "EUR", countries: ["AT", "DE"], pricesIncludeTax: true }),
    ]),
    choice: true,
    deliveryCountries: {
      of: async (customerId) => ({ berlin: "DE", boston: "US" })[customerId] ?? null,
      ofAddress: async () => null,
    },
    consumerRates: new KeptRead(
      async () =>
        new Map([
          ["AT", 20_000],
          ["DE", 19_000],
        ]),
    ),
  });
  const rateOf = async (url: string, cookie: string, customerId?: string) =>
    (await markets.of({ url, headers: { cookie } }, customerId))?.taxRateMillipercent;
  expect(await rateOf("/api/cart", "market=EU")).toBe(20_000);
  expect(await rateOf("/api/cart", "market=EU", "berlin")).toBe(19_000);
  expect(await rateOf("/api/cart?market=eu", "", "berlin")).toBe(19_000);
  // A default address outside the market, or none: the market's first country.
  expect(await rateOf("/api/cart", "market=EU", "boston")).toBe(20_000);
  expect(await rateOf("/api/cart", "market=EU", "nobody")).toBe(20_000);
  // Named by a country: that country, whoever asks.
  expect(await rateOf("/api/cart", "market=AT", "berlin")).toBe(20_000);
});

test("the hints as a request carries them", () => {
  expect(marketQuery("/products?sort=newest&market=eu")).toBe("eu");
  expect(marketQuery("/products?market=EU&market=GB")).toBe("GB");
  expect(marketQuery("/products")).toBeNull();
  expect(marketQuery("/products?sort=newest")).toBeNull();
  // Escaped, the name is still the name.
  expect(marketQuery("/products?%6Darket=eu")).toBe("eu");
  expect(marketQuery("/products?q=brake%20pads")).toBeNull();
  expect(marketCookie("a=1; market=EU; b=2")).toBe("EU");
  expect(marketCookie("supermarket=EU")).toBeNull();
  expect(marketCookie(undefined)).toBeNull();
});
