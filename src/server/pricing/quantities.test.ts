import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { checkoutTestCart, placeTestOrder } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { customerGroupMessages } from "../../contract/customer-groups";
import type { ProductListItem } from "../../contract/products";
import type { QuickOrderResult } from "../../contract/quick-order";
import { VISITORS, minimumFor, packFor, quantityProblem, type PricingContext } from "./pricing";
import { GARAGE_GROUP_ID, RETAIL_GROUP_ID } from "./tables";

// Quantities by group and group prices on the catalog's cards (docs/pricing.md "Quantities by
// group", "Group prices on cards and lists").

describe("the rule (pure)", () => {
  const part = { minimumOrder: 10, retailMinimum: 2, packSize: 5 };
  const trade: PricingContext = {
    currency: "USD",
    group: { name: "Garage", tradeMinimums: true },
  };
  const retail: PricingContext = {
    currency: "USD",
    group: { name: "Retail", tradeMinimums: false },
  };
  const visitor: PricingContext = { currency: "USD", group: VISITORS };

  test("trade buyers keep the trade minimum and the pack; retail customers and visitors the retail minimum", () => {
    expect([minimumFor(trade, part), packFor(trade, part)]).toEqual([10, 5]);
    expect([minimumFor(retail, part), packFor(retail, part)]).toEqual([2, 1]);
    expect([minimumFor(visitor, part), packFor(visitor, part)]).toEqual([2, 1]);
  });

  test("the buyer is told their minimum in the specification's words, then the pack", () => {
    expect(quantityProblem(trade, part, 5)).toBe("please order at least 10");
    expect(quantityProblem(trade, part, 12)).toBe("Order this part in packs of 5");
    expect(quantityProblem(trade, part, 15)).toBeNull();
    expect(quantityProblem(retail, part, 1)).toBe("please order at least 2");
    expect(quantityProblem(retail, part, 3)).toBeNull();
    expect(quantityProblem(visitor, part, 3)).toBeNull();
  });
});

describe("on the store", () => {
  const { t, call, admin } = storeForTests({
    admin: "quantities-admin@example.com",
    shipsToTestAddress: true,
  });
  let n = 0;

  async function customer(): Promise<TestAccount & { id: string }> {
    const who = await signUp(t.app);
    return { ...who, id: (await call(who, "GET", "/api/user")).json()._id };
  }
  /** A customer without a company placed in Garage (a trade group). */
  async function garageCustomer() {
    const who = await customer();
    const put = await call(admin, "PUT", `/api/users/${who.id}/customer-group`, {
      customerGroupId: GARAGE_GROUP_ID,
    });
    expect(put.statusCode, put.body).toBe(200);
    return who;
  }
  /** A part sold to the trade from 10 in packs of 10, to retail from `retailMinimum`. */
  async function packedPart(retailMinimum = 1) {
    const res = await call(admin, "POST", "/api/products", {
      name: `Packed plug ${process.pid} ${++n}`,
      partNumber: `PK-${process.pid}-${n}`,
      category: "Ignition",
      img: "/images/products/spark-plug.svg",
      price: 8,
      minimumOrder: 10,
      retailMinimum,
      packSize: 10,
      availableQuantity: 1000,
      shortDescription: "Sold by the pack",
      warranty: 12,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().product as { _id: string; partNumber: string };
  }

  test("the admin sets the retail minimum and the pack size; bad numbers are refused with words", async () => {
    const p = await packedPart(2);
    const shown = (await call(null, "GET", `/api/products/${p._id}`)).json();
    expect(shown).toMatchObject({ minimumOrder: 10, retailMinimum: 2, packSize: 10 });
    const edited = await call(admin, "PATCH", `/api/products/${p._id}`, {
      retailMinimum: 4,
      packSize: 5,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ retailMinimum: 4, packSize: 5 });
    const bad = await call(admin, "PATCH", `/api/products/${p._id}`, { packSize: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ packSize: "Must be at least 1" });
    const worse = await call(admin, "PATCH", `/api/products/${p._id}`, { retailMinimum: 1.5 });
    expect(worse.statusCode).toBe(400);
    const defaulted = await insertProduct(t.database.db);
    expect((await call(null, "GET", `/api/products/${defaulted.id}`)).json()).toMatchObject({
      retailMinimum: 1,
      packSize: 1,
    });
  });

  test("a trade minimum that is not a whole number of packs is refused on add and on edit, in words", async () => {
    const packs = "The minimum order must be a multiple of the pack size (10)";
    const added = await call(admin, "POST", "/api/products", {
      name: `Odd plug ${process.pid}`,
      partNumber: `PK-ODD-${process.pid}`,
      category: "Ignition",
      img: "/images/products/spark-plug.svg",
      price: 8,
      minimumOrder: 15,
      packSize: 10,
      availableQuantity: 1000,
      shortDescription: "Sold by the pack",
      warranty: 12,
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().fields).toMatchObject({ minimumOrder: packs });
    const p = await packedPart();
    // Either number alone is checked against the product's other one.
    const minimum = await call(admin, "PATCH", `/api/products/${p._id}`, { minimumOrder: 25 });
    expect([minimum.statusCode, minimum.json().fields]).toEqual([400, { minimumOrder: packs }]);
    const pack = await call(admin, "PATCH", `/api/products/${p._id}`, { packSize: 4 });
    expect([pack.statusCode, pack.json().fields]).toEqual([
      400,
      { minimumOrder: "The minimum order must be a multiple of the pack size (4)" },
    ]);
    const both = await call(admin, "PATCH", `/api/products/${p._id}`, {
      minimumOrder: 12,
      packSize: 4,
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json()).toMatchObject({ minimumOrder: 12, packSize: 4 });
    // An edit of something else goes through whatever the two numbers are.
    expect((await call(admin, "PATCH", `/api/products/${p._id}`, { price: 9 })).statusCode).toBe(
      200,
    );
  });

  test("a retail customer buys the retail minimum on every door; below it they are told their minimum", async () => {
    const single = await packedPart();
    const driver = await customer();
    expect((await call(driver, "GET", `/api/products/${single._id}/price`)).json()).toMatchObject({
      minimumOrder: 1,
      packSize: 1,
    });
    const cart = await call(driver, "PUT", `/api/cart/items/${single._id}`, { qty: 1 });
    expect(cart.json().lines[0]).toMatchObject({ qty: 1, minimumOrder: 1, problem: null });
    const checkout = await checkoutTestCart(t.app, driver, cart.json().subtotal);
    expect(checkout.statusCode, checkout.body).toBe(201);

    const boxed = await packedPart(3);
    const low = await placeTestOrder(t.app, driver, boxed._id, 2);
    expect([low.statusCode, low.json().message]).toEqual([422, "please order at least 3"]);
    // Any quantity from it: no pack for retail.
    expect((await placeTestOrder(t.app, driver, boxed._id, 7)).statusCode).toBe(201);
  });

  test("a trade buyer orders in packs: the cart, checkout, the single-part order and quick order refuse another quantity", async () => {
    const p = await packedPart();
    const garage = await garageCustomer();
    expect((await call(garage, "GET", `/api/products/${p._id}/price`)).json()).toMatchObject({
      minimumOrder: 10,
      packSize: 10,
    });
    const packs = customerGroupMessages.packs(10);
    expect(packs).toBe("Order this part in packs of 10");

    const cart = await call(garage, "PUT", `/api/cart/items/${p._id}`, { qty: 15 });
    expect(cart.json().lines[0]).toMatchObject({ qty: 15, problem: packs });
    const checkout = await checkoutTestCart(t.app, garage, cart.json().subtotal);
    expect([checkout.statusCode, checkout.json().message]).toEqual([422, packs]);
    expect(checkout.json().fields).toEqual({ [p._id]: packs });

    const single = await placeTestOrder(t.app, garage, p._id, 15);
    expect([single.statusCode, single.json().message]).toEqual([422, packs]);
    const below = await placeTestOrder(t.app, garage, p._id, 5);
    expect(below.json().message).toBe("please order at least 10");

    const quick = await call(garage, "POST", "/api/quick-order/resolve", {
      lines: [{ number: p.partNumber, qty: 15 }],
    });
    expect(quick.statusCode, quick.body).toBe(200);
    expect(quick.json<QuickOrderResult>().lines[0]!.problems).toEqual([
      { code: "pack_size", message: packs, blocking: true, qty: 20 },
    ]);

    const fixed = await call(garage, "PUT", `/api/cart/items/${p._id}`, { qty: 20 });
    expect(fixed.json().lines[0]).toMatchObject({ qty: 20, problem: null });
    const ordered = await checkoutTestCart(t.app, garage, fixed.json().subtotal);
    expect(ordered.statusCode, ordered.body).toBe(201);
    expect(ordered.json().order.items[0]).toMatchObject({ qty: 20 });
  });

  test("Order again raises a trade buyer's line to a whole pack of today's and says so", async () => {
    const p = await packedPart();
    const garage = await garageCustomer();
    const placed = await placeTestOrder(t.app, garage, p._id, 20);
    expect(placed.statusCode, placed.body).toBe(201);
    // Since then the part is sold by the dozen.
    const repacked = await call(admin, "PATCH", `/api/products/${p._id}`, {
      minimumOrder: 12,
      packSize: 12,
    });
    expect(repacked.statusCode, repacked.body).toBe(200);
    const again = await call(garage, "POST", `/api/orders/${placed.json().order._id}/reorder`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().changes).toContainEqual({
      productId: p._id,
      productName: expect.any(String),
      kind: "raised",
      message: expect.stringMatching(/: sold in packs of 12, so 24 instead of 20$/),
    });
    // In packs: the line's only problem is the unpaid order of the same part (the spec's rule).
    expect(again.json().cart.lines[0]).toMatchObject({
      qty: 24,
      problem: "You have already ordered this product",
    });
  });

  test("a garage buyer's cards carry their group price with its words and their quantities; visitors and retail get the shared page", async () => {
    const p = await packedPart();
    const rule = await call(admin, "POST", `/api/customer-groups/${GARAGE_GROUP_ID}/rules`, {
      percent: 25,
      scope: "part",
      partNumber: p.partNumber,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const garage = await garageCustomer();
    const driver = await customer();
    const url = `/api/products?q=${encodeURIComponent(p.partNumber)}`;
    const itemFor = async (who: TestAccount | null) => {
      const res = await call(who, "GET", url);
      expect(res.statusCode).toBe(200);
      return { res, item: res.json<ProductListItem[]>().find((i) => i._id === p._id)! };
    };
    // The garage's card: the rule's price, its words, the trade minimum and the pack.
    await expect
      .poll(async () => (await itemFor(garage)).item, { timeout: 5000 })
      .toMatchObject({
        price: 8,
        yourPrice: 6,
        priceNote: "Garage price: 25 % off this part",
        yourMinimumOrder: 10,
        yourPackSize: 10,
      });
    expect((await itemFor(garage)).res.headers["cache-control"]).toBe("private, no-store");
    for (const who of [driver, null]) {
      const { res, item } = await itemFor(who);
      expect(item.yourPrice).toBeUndefined();
      expect(item.priceNote).toBeUndefined();
      expect(item).toMatchObject({ retailMinimum: 1, packSize: 10 });
      expect(res.headers["cache-control"]).not.toBe("private, no-store");
    }
    const removed = await call(
      admin,
      "DELETE",
      `/api/customer-groups/${GARAGE_GROUP_ID}/rules/${rule.json().id}`,
    );
    expect(removed.statusCode).toBe(204);
  });

  test("a category rule on the cards: kept in memory, and a part added to the category later gets it too", async () => {
    const rule = await call(admin, "POST", `/api/customer-groups/${GARAGE_GROUP_ID}/rules`, {
      percent: 10,
      scope: "category",
      category: "Cooling",
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const garage = await garageCustomer();
    const word = `Coolant${process.pid}x${++n}`;
    const add = async () => {
      const res = await call(admin, "POST", "/api/products", {
        name: `${word} hose ${++n}`,
        partNumber: `CL-${process.pid}-${n}`,
        category: "Cooling",
        img: "/images/products/aluminium-radiator.svg",
        price: 20,
        minimumOrder: 1,
        availableQuantity: 50,
        shortDescription: "A cooling part",
        warranty: 12,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().product._id as string;
    };
    const notes = async () =>
      (await call(garage, "GET", `/api/products?q=${word}`))
        .json<ProductListItem[]>()
        .map((i) => [i.yourPrice, i.priceNote]);
    await add();
    const priced = [18, "Garage price: 10 % off cooling"];
    await expect.poll(notes, { timeout: 5000 }).toEqual([priced]);
    await add();
    // The catalog's change reaches the kept rules (NOTIFY 'catalog').
    await expect.poll(notes, { timeout: 5000 }).toEqual([priced, priced]);
    const removed = await call(
      admin,
      "DELETE",
      `/api/customer-groups/${GARAGE_GROUP_ID}/rules/${rule.json().id}`,
    );
    expect(removed.statusCode).toBe(204);
    await expect.poll(notes, { timeout: 5000 }).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  test("the retail count leaves admins out", async () => {
    const before = (await call(admin, "GET", "/api/customer-groups")).json();
    const retailCount = (groups: { retail: boolean; customerCount: number }[]) =>
      groups.find((g) => g.retail)!.customerCount;
    const adminsRetail = retailCount(before);
    await customer();
    const after = (await call(admin, "GET", "/api/customer-groups")).json();
    expect(retailCount(after)).toBe(adminsRetail + 1);
    const counted = await t.database.db.execute<{ customers: number; admins: number }>(
      sql`select count(*) filter (where role <> 'admin')::int as customers,
                 count(*) filter (where role = 'admin')::int as admins
            from "user" where customer_group_id = ${RETAIL_GROUP_ID}`,
    );
    expect(counted.rows[0]!.admins).toBeGreaterThan(0);
    expect(retailCount(after)).toBe(counted.rows[0]!.customers);
  });
});
