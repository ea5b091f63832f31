import { beforeAll, describe, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { texasSalesTax } from "../../../tests/support/destination";
import { newDiscountCodes } from "../../../tests/support/discount-codes";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { discountCodeMessages as msg } from "../../contract/discount-codes";
import { GARAGE_GROUP_ID } from "./tables";

/** A buyer's discount code in the cart and its quote (docs/pricing.md "Discount codes"). */
describe("a discount code in the cart", () => {
  const { t, call, admin } = storeForTests({
    admin: "codes-cart-admin@example.com",
    shipsToTestAddress: true,
  });
  beforeAll(async () => {
    expect((await texasSalesTax(t.app, admin, 8.25)).statusCode).toBe(201);
  });
  const newCode = newDiscountCodes(t, admin, "K");
  /** A new code's text. */
  const code = async (body: object) => (await newCode(body)).code;
  /** A customer with 2 brake parts at $30.00 and 1 filter at $12.01 in their cart. */
  async function buyerWithCart() {
    const brake = await insertProduct(t.database.db, {
      category: "Brakes",
      priceCents: 3000,
      minimumOrder: 1,
    });
    const filter = await insertProduct(t.database.db, {
      category: "Filters",
      priceCents: 1201,
      minimumOrder: 1,
    });
    const buyer = await signUp(t.app);
    expect((await call(buyer, "PUT", `/api/cart/items/${brake.id}`, { qty: 2 })).statusCode).toBe(
      200,
    );
    expect((await call(buyer, "PUT", `/api/cart/items/${filter.id}`, { qty: 1 })).statusCode).toBe(
      200,
    );
    return { buyer, brake, filter };
  }
  const texas = { estimate: { country: "US", postalCode: "78701" } };

  test("percent off the lines it is for; tax on what is left; the total after it", async () => {
    const c = await code({ kind: "percent", percent: 10, scope: "category", category: "Brakes" });
    const { buyer } = await buyerWithCart();
    const before = (await call(buyer, "POST", "/api/cart/quote", texas)).json();
    // 8.25 % of 60.00 (49.50) and of 12.01 (0.99, rounded per line).
    expect(before).toMatchObject({ subtotal: 72.01, discount: null, tax: 5.94, total: 77.95 });

    const applied = await call(buyer, "PUT", "/api/cart/discount-code", { code: c.toLowerCase() });
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({
      subtotal: 72.01,
      discount: { code: c, amount: 6, appliesTo: "10 % off brakes" },
      discountProblem: null,
      total: 66.01,
    });
    const quote = (await call(buyer, "POST", "/api/cart/quote", texas)).json();
    // Tax after the discount: 8.25 % of 54.00 is 4.455 → 4.46, and 0.99.
    expect(quote).toMatchObject({
      subtotal: 72.01,
      discount: { code: c, amount: 6 },
      tax: 5.45,
      total: 71.46,
    });
    expect(quote.lines.map((l: { tax: number }) => l.tax)).toEqual([4.46, 0.99]);

    // Taken off: the cart is priced as before.
    const removed = await call(buyer, "DELETE", "/api/cart/discount-code");
    expect(removed.json()).toMatchObject({ discount: null, discountProblem: null, total: 72.01 });
  });

  test("amount off is capped by the lines it is for, and never takes a line below zero", async () => {
    const c = await code({ kind: "amount", amount: 500, scope: "category", category: "Filters" });
    const { buyer } = await buyerWithCart();
    const res = await call(buyer, "PUT", "/api/cart/discount-code", { code: c });
    expect(res.json()).toMatchObject({
      discount: { amount: 12.01, appliesTo: "$500.00 off filters" },
      total: 60,
    });
  });

  test("a code that cannot be used is refused with its words, and nothing is applied", async () => {
    const { buyer } = await buyerWithCart();
    const refusals: [string, string][] = [
      [`NOPE-${process.pid}`, msg.unknownOrEnded],
      [await code({ kind: "percent", percent: 5, active: false }), msg.unknownOrEnded],
      [await code({ kind: "percent", percent: 5, endsOn: "2020-01-31" }), msg.unknownOrEnded],
      [
        await code({ kind: "percent", percent: 5, startsOn: "2999-01-01" }),
        "This code starts on 1 Jan 2999",
      ],
      [
        await code({ kind: "percent", percent: 5, minSubtotal: 100 }),
        "Spend $100.00 or more to use this code",
      ],
      [
        await code({ kind: "percent", percent: 5, customerGroupId: GARAGE_GROUP_ID }),
        msg.notForGroup,
      ],
      [
        await code({ kind: "percent", percent: 5, scope: "category", category: "Engine" }),
        msg.nothingEligible,
      ],
    ];
    for (const [c, words] of refusals) {
      const res = await call(buyer, "PUT", "/api/cart/discount-code", { code: c });
      expect(res.statusCode, c).toBe(422);
      expect(res.json()).toMatchObject({ message: words, fields: { discountCode: words } });
    }
    expect((await call(buyer, "GET", "/api/cart")).json().discount).toBeNull();
  });

  test("a code the cart no longer reaches stays applied and says why; visitors get none", async () => {
    const c = await code({ kind: "percent", percent: 10, minSubtotal: 50 });
    const { buyer, brake } = await buyerWithCart();
    expect((await call(buyer, "PUT", "/api/cart/discount-code", { code: c })).statusCode).toBe(200);
    const smaller = await call(buyer, "PUT", `/api/cart/items/${brake.id}`, { qty: 1 });
    expect(smaller.json()).toMatchObject({
      subtotal: 42.01,
      discount: null,
      discountProblem: "Spend $50.00 or more to use this code",
      total: 42.01,
    });
    const again = await call(buyer, "PUT", `/api/cart/items/${brake.id}`, { qty: 2 });
    expect(again.json()).toMatchObject({ discount: { code: c, amount: 7.2 }, total: 64.81 });

    const visitor = await call(null, "POST", "/api/cart/quote", {
      items: [{ productId: brake.id, qty: 2 }],
    });
    expect(visitor.json()).toMatchObject({ discount: null, discountProblem: null, total: 60 });
    expect((await call(null, "PUT", "/api/cart/discount-code", { code: c })).statusCode).toBe(401);
  });
});
