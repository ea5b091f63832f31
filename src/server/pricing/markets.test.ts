import fc from "fast-check";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { placeTestOrder } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { marketMessages, roundingRules, type Market } from "../../contract/markets";
import { adminAuditLog } from "../audit/tables";
import { orders } from "../orders/tables";
import { convertMinor, toStoreMinor } from "./convert";

describe("conversion, pure", () => {
  const amount = fc.integer({ min: 0, max: 1_000_000_000 });
  // Rates as the admin types them: six decimals at most.
  const rate = fc.integer({ min: 1, max: 100_000_000_000 }).map((n) => n / 1_000_000);
  const rule = fc.constantFrom(...roundingRules);

  test("never negative, a whole number of minor units", () => {
    fc.assert(
      fc.property(amount, rate, rule, (a, r, ru) => {
        const out = convertMinor(a, r, ru);
        expect(Number.isSafeInteger(out)).toBe(true);
        expect(out).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  test("monotone: a dearer price in the store's currency is never cheaper in the market's", () => {
    fc.assert(
      fc.property(amount, amount, rate, rule, (a, b, r, ru) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(convertMinor(lo, r, ru)).toBeLessThanOrEqual(convertMinor(hi, r, ru));
      }),
    );
  });

  test("rate 1 rounded to the cent is the identity; to the cent it is within half a cent", () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(convertMinor(a, 1, "cent")).toBe(a);
      }),
    );
    fc.assert(
      fc.property(amount, rate, (a, r) => {
        expect(Math.abs(convertMinor(a, r, "cent") - a * r)).toBeLessThanOrEqual(0.5 + 1e-6 * a);
      }),
    );
  });

  test("the rules, by example: whole units, .99 and .95 (below half a unit, to the cent)", () => {
    expect(convertMinor(2586, 0.92, "cent")).toBe(2379); // $25.86 → €23.79 (23.7912)
    expect(convertMinor(2586, 0.92, "whole")).toBe(2400);
    expect(convertMinor(2586, 0.92, "end99")).toBe(2399);
    expect(convertMinor(2586, 0.92, "end95")).toBe(2395);
    expect(convertMinor(1000, 1, "end99")).toBe(999);
    expect(convertMinor(1060, 1, "end99")).toBe(1099);
    expect(convertMinor(40, 1, "end99")).toBe(40);
    expect(convertMinor(0, 0.79, "whole")).toBe(0);
    expect(convertMinor(5, 0.5, "cent")).toBe(3); // 2.5 cents, half up
  });

  test("back to the store's currency: the rounding of a cent either way", () => {
    fc.assert(
      fc.property(amount, rate, (a, r) => {
        expect(Math.abs(toStoreMinor(convertMinor(a, r, "cent"), r) - a)).toBeLessThanOrEqual(
          0.5 / r + 1,
        );
      }),
    );
    expect(toStoreMinor(2379, 0.92)).toBe(2586);
  });

  test("a negative or fractional amount, or a rate of 0, is refused", () => {
    expect(() => convertMinor(-1, 1, "cent")).toThrow(RangeError);
    expect(() => convertMinor(1.5, 1, "cent")).toThrow(RangeError);
    expect(() => convertMinor(1, 0, "cent")).toThrow(RangeError);
  });
});

describe("markets, on the database", () => {
  const { t, call, admin, customer } = storeForTests({
    admin: "markets-admin@example.com",
    shipsToTestAddress: true,
    customers: { customer: {} },
  });
  let n = 0;
  // Countries no seeded or tested market has: each new market takes the next.
  const free = "JP KR CN AU NZ BR AR MX CL CO ZA IN SG TH VN".split(" ");
  const market = (over: object = {}) => ({
    code: `M${++n}X`.replace(/\d/g, (d) => "ABCDEFGHIJ"[Number(d)]!),
    name: `Market ${process.pid} ${n}`,
    currency: "EUR",
    countries: [free[n % free.length]],
    rate: 0.9,
    ...over,
  });

  test("seeded: the United States (default, USD at 1), Europe (EUR, VAT included), the United Kingdom", async () => {
    const res = await call(null, "GET", "/api/markets");
    expect(res.statusCode).toBe(200);
    const list = res.json<Market[]>();
    expect(list.slice(0, 3)).toMatchObject([
      { code: "US", currency: "USD", rate: 1, isDefault: true, countries: ["US"] },
      {
        code: "EU",
        name: "Europe",
        currency: "EUR",
        pricesIncludeTax: true,
        rounding: "cent",
        countries: ["AT", "BE", "DE", "ES", "FI", "FR", "IE", "IT", "LU", "NL", "PT"],
        // $19.99 × 0.92 = €18.3908, to the cent.
        example: { storePrice: 19.99, price: 18.39 },
      },
      { code: "GB", currency: "GBP", pricesIncludeTax: true, countries: ["GB"] },
    ]);
  });

  test("an admin creates and changes a market (audited); an inactive one is shown to admins alone", async () => {
    const created = await call(
      admin,
      "POST",
      "/api/markets",
      market({ code: "nordic", name: "Nordics", countries: "se, dk no", rate: 10.5 }),
    );
    expect(created.statusCode).toBe(201);
    const m = created.json<Market>();
    expect(m).toMatchObject({
      code: "NORDIC",
      countries: ["SE", "DK", "NO"].sort(),
      rate: 10.5,
      rounding: "cent",
      pricesIncludeTax: false,
      active: true,
      isDefault: false,
    });
    const changed = await call(admin, "PATCH", `/api/markets/${m.id}`, {
      code: "NORDIC",
      name: "Nordics",
      currency: "EUR",
      countries: ["SE", "DK"],
      rate: 0.087654,
      rounding: "end99",
      pricesIncludeTax: true,
      active: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      countries: ["DK", "SE"],
      rate: 0.087654,
      active: false,
      // $19.99 × 0.087654 = 1.7522 units: to the nearest .99 is 1.99.
      example: { storePrice: 19.99, price: 1.99 },
    });
    const codes = async (who: TestAccount | null) =>
      (await call(who, "GET", "/api/markets")).json<Market[]>().map((x) => x.code);
    expect(await codes(admin)).toContain("NORDIC");
    expect(await codes(null)).not.toContain("NORDIC");
    expect(await codes(customer)).not.toContain("NORDIC");
    const audit = await t.database.db
      .select({ action: adminAuditLog.action, summary: adminAuditLog.summary })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, m.id));
    expect(audit.map((a) => a.action).sort()).toEqual(["market.create", "market.update"]);
    expect(audit.find((a) => a.action === "market.update")!.summary).toContain(
      "1 USD = 10.5 EUR, to the cent",
    );
    // NO was let go: another market may take it.
    const norway = await call(admin, "POST", "/api/markets", market({ countries: ["NO"] }));
    expect(norway.statusCode).toBe(201);
  });

  test("refusals with words: a country in another market, a code or name taken, bad rates and countries", async () => {
    const refused = async (body: object, status: number, field: string, message: string) => {
      const res = await call(admin, "POST", "/api/markets", body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ fields: { [field]: message } });
      expect(res.json<{ message: string }>().message).toContain(message);
    };
    await refused(
      market({ countries: ["PL", "DE"] }),
      409,
      "countries",
      marketMessages.countryTaken("DE", "Europe"),
    );
    await refused(market({ code: "eu" }), 409, "code", marketMessages.codeTaken);
    await refused(market({ name: "europe" }), 409, "name", marketMessages.nameTaken);
    await refused(
      market({ countries: "PL XX" }),
      400,
      "countries",
      "XX is not an ISO country code",
    );
    await refused(market({ countries: " " }), 400, "countries", marketMessages.countries);
    for (const rate of [0, -1, 1.0000001, 100_001]) {
      await refused(market({ rate }), 400, "rate", marketMessages.rate);
    }
    await refused(market({ currency: "JPY" }), 400, "currency", marketMessages.currency);
    await refused(market({ code: "E1" }), 400, "code", marketMessages.code);
    // Nothing half-written: Poland was in none of them.
    const list = (await call(admin, "GET", "/api/markets")).json<Market[]>();
    expect(list.flatMap((x) => x.countries)).not.toContain("PL");
  });

  test("two admins giving one country to two new markets at once: one is created, the other told which market has it", async () => {
    const bodies = [market({ countries: ["CH"] }), market({ countries: ["LI", "CH"] })];
    const answers = (
      await Promise.all(bodies.map((body) => call(admin, "POST", "/api/markets", body)))
    ).sort((x, y) => x.statusCode - y.statusCode);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 409]);
    const created = answers[0]!.json<Market>();
    expect(answers[1]!.json()).toMatchObject({
      fields: { countries: marketMessages.countryTaken("CH", created.name) },
    });
    // Nothing of the refused market was written: its row nor its other countries.
    const refused = bodies.find((b) => b.name !== created.name)!;
    const list = (await call(admin, "GET", "/api/markets")).json<Market[]>();
    expect(list.map((x) => x.name)).not.toContain(refused.name);
    expect(list.filter((x) => x.countries.some((c) => c === "CH" || c === "LI"))).toEqual([
      created,
    ]);
  });

  test("the default market stays the store's currency at rate 1, active; others may not touch markets", async () => {
    const us = (await call(null, "GET", "/api/markets")).json<Market[]>()[0]!;
    const body = { ...us, id: undefined, isDefault: undefined, example: undefined };
    const change = (over: object) =>
      call(admin, "PATCH", `/api/markets/${us.id}`, { ...body, ...over });
    expect((await change({ rate: 1.1 })).json()).toMatchObject({
      fields: { rate: marketMessages.defaultCurrency("USD") },
    });
    expect((await change({ currency: "EUR" })).statusCode).toBe(400);
    expect((await change({ active: false })).json()).toMatchObject({
      fields: { active: marketMessages.defaultActive },
    });
    const renamed = await change({ name: "USA", countries: ["US", "PR"] });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: "USA", countries: ["PR", "US"], rate: 1 });
    expect((await call(customer, "POST", "/api/markets", market())).statusCode).toBe(403);
    expect((await call(null, "PATCH", `/api/markets/${us.id}`, body)).statusCode).toBe(401);
    expect(
      (await call(admin, "PATCH", "/api/markets/00000000-0000-4000-8000-00000000ffff", market()))
        .statusCode,
    ).toBe(404);
  });

  test("an order keeps its currency and the exchange rate it was priced with (1: the store's currency) when a market's rate changes", async () => {
    const part = await insertProduct(t.database.db, { priceCents: 2100, minimumOrder: 1 });
    const placed = await placeTestOrder(t.app, customer, part.id, 1);
    expect(placed.statusCode, placed.body).toBe(201);
    const europe = (await call(null, "GET", "/api/markets")).json<Market[]>()[1]!;
    const { id, isDefault, example, ...body } = europe;
    expect(example).toEqual({ storePrice: 19.99, price: 18.39 });
    expect(isDefault).toBe(false);
    const changed = await call(admin, "PATCH", `/api/markets/${id}`, { ...body, rate: 0.97 });
    expect(changed.statusCode).toBe(200);
    // The store's one order.
    const placedOrders = await t.database.db
      .select({ currency: orders.currency, exchangeRate: orders.exchangeRate })
      .from(orders);
    expect(placedOrders).toEqual([{ currency: "USD", exchangeRate: 1 }]);
  });
});
