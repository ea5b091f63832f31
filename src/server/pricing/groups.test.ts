import fc from "fast-check";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { checkoutTestCart, placeTestOrder } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { createPriceList, joinCompany } from "../../../tests/support/trade";
import { customerGroupMessages } from "../../contract/customer-groups";
import { adminAuditLog } from "../audit/tables";
import {
  percentOff,
  priceLines,
  unitPriceWithNote,
  type GroupRule,
  type PricingContext,
} from "./pricing";
import { GARAGE_GROUP_ID, RETAIL_GROUP_ID } from "./tables";

const FLEET_GROUP_ID = "00000000-0000-4000-8000-000000000003";

describe("the rule, pure", () => {
  const rule = (scope: GroupRule["scope"], percent: number): GroupRule => ({
    scope,
    percent,
    category: scope === "category" ? "Brakes" : null,
    brand: scope === "brand" ? "Bosch" : null,
  });
  const garage = (rules: GroupRule[], overlay?: PricingContext["overlay"]): PricingContext => ({
    currency: "USD",
    group: { name: "Garage", tradeMinimums: true },
    rules: new Map([["p", rules]]),
    overlay,
  });
  const line = (qty = 1, listPriceCents = 1000, publicBreaks = [] as const) => ({
    productId: "p",
    qty,
    listPriceCents,
    publicBreaks,
  });

  test("a part's rule beats its brand's, a brand's its category's; then the larger percentage", () => {
    const all = [rule("category", 30), rule("brand", 20), rule("part", 10)];
    expect(unitPriceWithNote(garage(all), line())).toEqual({
      unitPriceCents: 900,
      note: "Garage price: 10 % off this part",
    });
    expect(unitPriceWithNote(garage([rule("category", 30), rule("brand", 20)]), line())).toEqual({
      unitPriceCents: 800,
      note: "Garage price: 20 % off Bosch",
    });
    expect(unitPriceWithNote(garage([rule("category", 20), rule("category", 25)]), line())).toEqual(
      { unitPriceCents: 750, note: "Garage price: 25 % off brakes" },
    );
  });

  test("the lowest price wins: a company's fixed price or a break below the rule's is charged, without the rule's words", () => {
    const fixed = new Map([["p", { unitPriceCents: 850, breaks: [] }]]);
    expect(unitPriceWithNote(garage([rule("part", 10)], fixed), line())).toEqual({
      unitPriceCents: 850,
      note: null,
    });
    const breaks = [{ minQty: 10, unitPriceCents: 700 }];
    expect(
      unitPriceWithNote(garage([rule("part", 20)]), { ...line(10), publicBreaks: breaks }),
    ).toEqual({ unitPriceCents: 700, note: null });
    expect(
      unitPriceWithNote(garage([rule("part", 20)]), { ...line(9), publicBreaks: breaks }),
    ).toMatchObject({ unitPriceCents: 800 });
  });

  test("cents round half up and never go below zero; no group, no rule", () => {
    expect(percentOff(999, 20)).toBe(799);
    expect(percentOff(1, 50)).toBe(1);
    expect(percentOff(5, 100)).toBe(0);
    const noGroup: PricingContext = {
      currency: "USD",
      rules: new Map([["p", [rule("part", 50)]]]),
    };
    expect(unitPriceWithNote(noGroup, line()).unitPriceCents).toBe(1000);
  });

  test("property: never negative, never above the list price, the lowest candidate, precedence respected", () => {
    const scopes = ["category", "brand", "part"] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(
          fc.record({
            scope: fc.constantFrom(...scopes),
            percent: fc.integer({ min: 1, max: 100 }),
          }),
          {
            maxLength: 5,
          },
        ),
        fc.option(fc.integer({ min: 0, max: 100_000_000 }), { nil: undefined }),
        fc.array(
          fc.record({
            minQty: fc.integer({ min: 2, max: 500 }),
            unitPriceCents: fc.nat(100_000_000),
          }),
          {
            maxLength: 3,
          },
        ),
        (list, qty, ruleSpecs, fixedCents, breaks) => {
          const rules = ruleSpecs.map((r) => rule(r.scope, r.percent));
          const overlay =
            fixedCents === undefined
              ? undefined
              : new Map([["p", { unitPriceCents: fixedCents, breaks: [] }]]);
          const context = garage(rules, overlay);
          const { unitPriceCents, note } = unitPriceWithNote(context, {
            ...line(qty, list),
            publicBreaks: breaks,
          });
          expect(unitPriceCents).toBeGreaterThanOrEqual(0);
          expect(unitPriceCents).toBeLessThanOrEqual(list);
          expect(Number.isInteger(unitPriceCents)).toBe(true);
          // The rule that counts: the most specific scope present, its largest percentage.
          const top = scopes.findLast((s) => rules.some((r) => r.scope === s));
          const percent = top
            ? Math.max(...rules.filter((r) => r.scope === top).map((r) => r.percent))
            : undefined;
          const candidates = [
            list,
            ...breaks.filter((b) => qty >= b.minQty).map((b) => b.unitPriceCents),
            ...(fixedCents === undefined ? [] : [fixedCents]),
            ...(percent === undefined ? [] : [percentOff(list, percent)]),
          ];
          expect(unitPriceCents).toBe(Math.min(...candidates));
          if (note) expect(note).toContain(`${percent} % off`);
          // The same line priced twice, alone or among others, costs the same.
          const [again] = priceLines(context, [{ ...line(qty, list), publicBreaks: breaks }]);
          expect(again!.unitPriceCents).toBe(unitPriceCents);
          expect(again!.lineTotalCents).toBe(unitPriceCents * qty);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("groups, rules and quantities through the API", () => {
  const { t, call, admin } = storeForTests({
    admin: "groups-admin@example.com",
    shipsToTestAddress: true,
  });
  let n = 0;
  const brand = () => `Brand${process.pid}x${++n}`;

  async function companyBuyer(groupId: string, priceListId: string | null = null) {
    const company = await call(admin, "POST", "/api/companies", {
      name: `Group co ${process.pid} ${++n}`,
      customerGroupId: groupId,
      priceListId,
    });
    expect(company.statusCode).toBe(201);
    return joinCompany(t.app, admin, company.json().id, "buyer");
  }
  async function rule(groupId: string, body: object) {
    const res = await call(admin, "POST", `/api/customer-groups/${groupId}/rules`, body);
    expect(res.statusCode).toBe(201);
    return res.json();
  }

  test("a garage buyer gets the group's price with its words on the product, in the cart, at checkout and on the order; no one else does", async () => {
    const b = brand();
    const p = await insertProduct(t.database.db, {
      priceCents: 2500,
      minimumOrder: 1,
      availableQuantity: 1000,
      category: "Brakes",
      brand: b,
    });
    const saved = await rule(GARAGE_GROUP_ID, { percent: 20, scope: "brand", brand: b });
    expect(saved).toMatchObject({ percent: 20, scope: "brand", brand: b, words: `20 % off ${b}` });
    const garage = await companyBuyer(GARAGE_GROUP_ID);
    const fleet = await companyBuyer(FLEET_GROUP_ID);
    const retail = await signUp(t.app);

    expect((await call(garage, "GET", `/api/products/${p.id}/price`)).json()).toMatchObject({
      listPrice: 25,
      yourPrice: 20,
      priceNote: `Garage price: 20 % off ${b}`,
      minimumOrder: 1,
      breaks: [{ minQty: 1, unitPrice: 20 }],
    });
    for (const who of [fleet, retail, null]) {
      expect((await call(who, "GET", `/api/products/${p.id}/price`)).json()).toMatchObject({
        yourPrice: 25,
        priceNote: null,
      });
    }
    const cart = await call(garage, "PUT", `/api/cart/items/${p.id}`, { qty: 3 });
    expect(cart.json().lines[0]).toMatchObject({
      unitPrice: 20,
      lineTotal: 60,
      problem: null,
      priceNote: `Garage price: 20 % off ${b}`,
    });
    const checkout = await checkoutTestCart(t.app, garage, 60);
    expect(checkout.statusCode).toBe(201);
    expect(checkout.json().order.items[0]).toMatchObject({ unitPrice: 20, lineTotal: 60 });
    const single = await placeTestOrder(t.app, fleet, p.id, 2);
    expect(single.json().order.productPrice).toBe(25);
  });

  test("a rule applies from its first day to its last (UTC dates), not outside them", async () => {
    const b = brand();
    const p = await insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1, brand: b });
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await rule(GARAGE_GROUP_ID, { percent: 50, scope: "brand", brand: b, endsOn: day(-1) });
    await rule(GARAGE_GROUP_ID, { percent: 40, scope: "brand", brand: b, startsOn: day(1) });
    const garage = await companyBuyer(GARAGE_GROUP_ID);
    const price = () => call(garage, "GET", `/api/products/${p.id}/price`).then((r) => r.json());
    expect(await price()).toMatchObject({ yourPrice: 10, priceNote: null });
    await rule(GARAGE_GROUP_ID, {
      percent: 10,
      scope: "part",
      partNumber: p.partNumber.toLowerCase(),
      startsOn: day(0),
      endsOn: day(0),
    });
    expect(await price()).toMatchObject({
      yourPrice: 9,
      priceNote: "Garage price: 10 % off this part",
    });
  });

  test("property: the same cart costs the same in the cart, at checkout and through the single-product order", async () => {
    const garage = await companyBuyer(GARAGE_GROUP_ID);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // At most $400 × 60: an unpaid order holds at most $25,000 of stock (HOLD_MAX_VALUE).
        fc.integer({ min: 100, max: 40_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 90 }),
        fc.boolean(),
        async (priceCents, qty, percent, withBreak) => {
          run += 1;
          const b = brand();
          const p = await insertProduct(t.database.db, {
            priceCents,
            minimumOrder: 1,
            availableQuantity: 10_000,
            brand: b,
            breaks: withBreak ? [{ minQty: 10, unitPriceCents: Math.floor(priceCents * 0.7) }] : [],
          });
          await rule(GARAGE_GROUP_ID, { percent, scope: "brand", brand: b });
          const shown = await call(garage, "GET", `/api/products/${p.id}/price`);
          const cart = (await call(garage, "PUT", `/api/cart/items/${p.id}`, { qty })).json();
          const line = cart.lines.find((l: { productId: string }) => l.productId === p.id);
          expect(line.unitPrice).toBeGreaterThanOrEqual(0);
          if (qty === 1) expect(line.unitPrice).toBe(shown.json().yourPrice);
          const checkout = await checkoutTestCart(t.app, garage, cart.subtotal, `${run} Cart Road`);
          expect(checkout.statusCode, checkout.body).toBe(201);
          const ordered = checkout.json().order;
          expect(ordered.items[0].lineTotal).toBe(line.lineTotal);
          // The cart's order is unpaid: the same part again would be a duplicate, so the
          // single-product order is placed after deleting it (and deleted in turn: the buyer's
          // unpaid value stays small however many runs).
          await call(garage, "DELETE", `/api/orders/${ordered._id}`);
          const single = await placeTestOrder(t.app, garage, p.id, qty, `${run} Single Road`);
          expect([single.statusCode, single.body]).toEqual([201, expect.any(String)]);
          expect(single.json().order.productPrice).toBe(line.unitPrice);
          await call(garage, "DELETE", `/api/orders/${single.json().order._id}`);
        },
      ),
      { numRuns: 6 },
    );
  });

  test("a retail customer buys one of a part sold to the trade by the 50; a garage keeps the trade minimum, with the specification's words", async () => {
    const filter = await insertProduct(t.database.db, { minimumOrder: 50, availableQuantity: 500 });
    const other = await insertProduct(t.database.db, { minimumOrder: 50, availableQuantity: 500 });
    const driver = await signUp(t.app);
    const garage = await companyBuyer(GARAGE_GROUP_ID);

    expect(
      (await call(driver, "GET", `/api/products/${filter.id}/price`)).json().minimumOrder,
    ).toBe(1);
    const cart = await call(driver, "PUT", `/api/cart/items/${filter.id}`, { qty: 1 });
    expect(cart.json().lines[0]).toMatchObject({ qty: 1, minimumOrder: 1, problem: null });
    const checkout = await checkoutTestCart(t.app, driver, cart.json().subtotal);
    expect(checkout.statusCode).toBe(201);
    expect(checkout.json().order.items[0]).toMatchObject({ qty: 1 });
    expect((await placeTestOrder(t.app, driver, other.id, 1)).statusCode).toBe(201);

    expect(
      (await call(garage, "GET", `/api/products/${filter.id}/price`)).json().minimumOrder,
    ).toBe(50);
    const trade = await call(garage, "PUT", `/api/cart/items/${filter.id}`, { qty: 1 });
    expect(trade.json().lines[0]).toMatchObject({ problem: "please order at least 50" });
    const refused = await placeTestOrder(t.app, garage, filter.id, 1);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe("please order at least 50");

    // A store that keeps trade minimums for retail too: one switch on the group.
    const on = await call(admin, "PATCH", `/api/customer-groups/${RETAIL_GROUP_ID}`, {
      tradeMinimums: true,
    });
    expect(on.json()).toMatchObject({ retail: true, tradeMinimums: true });
    const third = await insertProduct(t.database.db, { minimumOrder: 50, availableQuantity: 500 });
    const keptOut = await placeTestOrder(t.app, driver, third.id, 1);
    expect(keptOut.json().message).toBe("please order at least 50");
    await call(admin, "PATCH", `/api/customer-groups/${RETAIL_GROUP_ID}`, { tradeMinimums: false });
  });

  test("admins keep the groups: names unique, retail kept, a group in use kept, rules checked, every change audited", async () => {
    const created = await call(admin, "POST", "/api/customer-groups", { name: "Body shops" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: "Body shops",
      tradeMinimums: true,
      retail: false,
    });
    const id = created.json().id;
    const again = await call(admin, "POST", "/api/customer-groups", { name: "body SHOPS" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(customerGroupMessages.nameTaken);
    const names = (await call(admin, "GET", "/api/customer-groups"))
      .json()
      .map((g: { name: string }) => g.name);
    expect(names.slice(0, 4)).toEqual(["Retail", "Garage", "Fleet", "Distributor"]);

    const retail = await call(admin, "DELETE", `/api/customer-groups/${RETAIL_GROUP_ID}`);
    expect([retail.statusCode, retail.json().message]).toEqual([
      409,
      customerGroupMessages.retailKept,
    ]);
    await companyBuyer(GARAGE_GROUP_ID);
    const inUseAgain = await call(admin, "DELETE", `/api/customer-groups/${GARAGE_GROUP_ID}`);
    expect([inUseAgain.statusCode, inUseAgain.json().message]).toEqual([
      409,
      customerGroupMessages.inUse,
    ]);

    const bad = async (body: object, field: string, message: string, groupId = id) => {
      const res = await call(admin, "POST", `/api/customer-groups/${groupId}/rules`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields?.[field] ?? res.json().message).toBe(message);
    };
    await bad({ percent: 10, scope: "brand" }, "brand", customerGroupMessages.brand);
    await bad(
      { percent: 0, scope: "category", category: "Brakes" },
      "percent",
      customerGroupMessages.percent,
    );
    await bad(
      { percent: 10, scope: "part", partNumber: "NO-SUCH-PART" },
      "partNumber",
      customerGroupMessages.unknownPart,
    );
    await bad(
      {
        percent: 10,
        scope: "category",
        category: "Brakes",
        startsOn: "2027-02-01",
        endsOn: "2027-01-01",
      },
      "endsOn",
      customerGroupMessages.datesOrder,
    );
    await bad(
      { percent: 10, scope: "category", category: "Brakes" },
      "scope",
      customerGroupMessages.retailNoRules,
      RETAIL_GROUP_ID,
    );

    const r = await rule(id, { percent: 15, scope: "category", category: "Brakes" });
    expect(r.words).toBe("15 % off brakes");
    expect((await call(admin, "GET", `/api/customer-groups/${id}/rules`)).json()).toHaveLength(1);
    expect(
      (await call(admin, "DELETE", `/api/customer-groups/${id}/rules/${r.id}`)).statusCode,
    ).toBe(204);
    expect((await call(admin, "DELETE", `/api/customer-groups/${id}`)).statusCode).toBe(204);

    // A company moves between groups on its edit; its answer names the group.
    const company = await call(admin, "POST", "/api/companies", { name: `Mover ${process.pid}` });
    expect(company.json()).toMatchObject({
      customerGroupId: GARAGE_GROUP_ID,
      customerGroupName: "Garage",
    });
    const moved = await call(admin, "PATCH", `/api/companies/${company.json().id}`, {
      customerGroupId: FLEET_GROUP_ID,
    });
    expect(moved.json()).toMatchObject({ customerGroupName: "Fleet" });
    const unknown = await call(admin, "PATCH", `/api/companies/${company.json().id}`, {
      customerGroupId: "00000000-0000-4000-8000-0000000000ff",
    });
    expect(unknown.statusCode).toBe(400);

    const actions = (
      await t.database.db
        .select({ action: adminAuditLog.action })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, id))
    ).map((a) => a.action);
    expect(actions.sort()).toEqual([
      "customer-group.create",
      "customer-group.delete",
      "price-rule.create",
      "price-rule.delete",
    ]);
  });

  test("an admin edits a rule: the buyer's price and words follow, bad input is refused, the change is audited", async () => {
    const p = await insertProduct(t.database.db, {
      priceCents: 4000,
      minimumOrder: 1,
      category: "Filters",
      brand: brand(),
    });
    const group = (
      await call(admin, "POST", "/api/customer-groups", { name: `Edit ${n++}` })
    ).json();
    const saved = await rule(group.id, { percent: 10, scope: "part", partNumber: p.partNumber });
    const buyer = await companyBuyer(group.id);
    const url = `/api/customer-groups/${group.id}/rules/${saved.id}`;
    const edited = await call(admin, "PATCH", url, {
      percent: 25,
      scope: "part",
      partNumber: p.partNumber,
      startsOn: "2020-01-01",
      endsOn: null,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      id: saved.id,
      percent: 25,
      productId: p.id,
      startsOn: "2020-01-01",
      endsOn: null,
      words: `25 % off ${p.partNumber}`,
    });
    expect((await call(buyer, "GET", `/api/products/${p.id}/price`)).json()).toMatchObject({
      yourPrice: 30,
      priceNote: `${group.name} price: 25 % off this part`,
    });
    // Another target: the part's rule becomes its category's.
    const moved = await call(admin, "PATCH", url, {
      percent: 5,
      scope: "category",
      category: "Filters",
    });
    expect(moved.json()).toMatchObject({
      scope: "category",
      productId: null,
      words: "5 % off filters",
    });

    const refused = await call(admin, "PATCH", url, {
      percent: 10,
      scope: "part",
      partNumber: "NO-SUCH",
    });
    expect([refused.statusCode, refused.json().fields?.partNumber]).toEqual([
      400,
      customerGroupMessages.unknownPart,
    ]);
    const elsewhere = await call(
      admin,
      "PATCH",
      `/api/customer-groups/${GARAGE_GROUP_ID}/rules/${saved.id}`,
      { percent: 10, scope: "category", category: "Brakes" },
    );
    expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([
      404,
      customerGroupMessages.ruleNotFound,
    ]);
    expect(
      (await call(admin, "GET", `/api/customer-groups/${group.id}/rules`)).json(),
    ).toMatchObject([{ percent: 5, scope: "category" }]);
    const audit = await t.database.db
      .select({ action: adminAuditLog.action, summary: adminAuditLog.summary })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, group.id));
    expect(audit.filter((a) => a.action === "price-rule.update").map((a) => a.summary)).toEqual(
      expect.arrayContaining([
        `Changed a price rule of ${group.name}: 10 % off ${p.partNumber} → 25 % off ${p.partNumber} from 1 Jan 2020`,
      ]),
    );
  });

  test("only admins reach the groups; a fixed company price lower than the rule still wins", async () => {
    const p = await insertProduct(t.database.db, {
      priceCents: 1000,
      minimumOrder: 1,
      brand: brand(),
    });
    await rule(GARAGE_GROUP_ID, { percent: 10, scope: "part", partNumber: p.partNumber });
    const list = await createPriceList(t.app, admin, [{ productId: p.id, unitPrice: 8.5 }]);
    const buyer = await companyBuyer(GARAGE_GROUP_ID, list.id);
    expect((await call(buyer, "GET", `/api/products/${p.id}/price`)).json()).toMatchObject({
      yourPrice: 8.5,
      companyPrice: true,
      priceNote: null,
    });
    expect((await call(buyer, "GET", "/api/customer-groups")).statusCode).toBe(403);
    expect(
      (await call(null, "GET", `/api/customer-groups/${GARAGE_GROUP_ID}/rules`)).statusCode,
    ).toBe(401);
  });
});
