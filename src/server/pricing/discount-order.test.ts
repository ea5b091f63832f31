import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { discountsOfOrder, newDiscountCodes } from "../../../tests/support/discount-codes";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { discountCodeMessages as msg } from "../../contract/discount-codes";
import { quoteMessages } from "../../contract/quotes";

/**
 * A discount code on the specification's one-product order, `POST /api/orders` (the product
 * page's order panel), and its total, `POST /api/orders/total` (docs/pricing.md "Discount codes").
 */
describe("a discount code on the one-product order", () => {
  const { t, call, admin } = storeForTests({
    admin: "codes-order-admin@example.com",
    shipsToTestAddress: true,
  });
  const code = newDiscountCodes(t, admin, "O");
  const part = () => insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1 });
  const where = { shipTo: TEST_SHIP_TO };
  const total = (who: TestAccount, productId: string, orderQty: number, discountCode?: string) =>
    call(who, "POST", "/api/orders/total", { productId, orderQty, ...where, discountCode });
  const order = (
    who: TestAccount,
    productId: string,
    orderQty: number,
    expectedTotal: number,
    discountCode?: string,
  ) =>
    call(who, "POST", "/api/orders", {
      productId,
      orderQty,
      phonrNo: "5550100",
      Address: "1 Dock Road",
      ...where,
      expectedTotal,
      discountCode,
    });

  test("the total shows the code's line; the order keeps it, the line its share, and the use is recorded", async () => {
    const c = await code({ kind: "percent", percent: 10 });
    const p = await part();
    const buyer = await signUp(t.app);
    const plain = (await total(buyer, p.id, 3)).json();
    expect(plain).toMatchObject({ subtotal: 30 });
    expect(plain.discount).toBeUndefined();
    const shown = await total(buyer, p.id, 3, c.code.toLowerCase());
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({
      subtotal: 30,
      discount: { code: c.code, amount: 3 },
      total: Number((plain.total - 3 - (plain.tax - shown.json().tax)).toFixed(2)),
    });

    // The total without the code is not what the order with it charges: 409, nothing placed.
    const stale = await order(buyer, p.id, 3, plain.total, c.code);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().fields).toMatchObject({ discount: "3" });

    const placed = await order(buyer, p.id, 3, shown.json().total, c.code);
    expect(placed.statusCode, placed.body).toBe(201);
    const o = placed.json().order;
    expect(o).toMatchObject({ discount: { code: c.code, amount: 3 }, total: shown.json().total });
    const { lines, uses } = await discountsOfOrder(t.database.db, o._id);
    expect(lines).toEqual([{ discountCents: 300 }]);
    expect(uses).toMatchObject([{ codeId: c.id, discountCents: 300 }]);
  });

  test("the cart's refusals, in the same words, on the total and on the order; nothing placed", async () => {
    const p = await part();
    const buyer = await signUp(t.app);
    const unknown = await total(buyer, p.id, 1, "NO-SUCH-CODE");
    expect([unknown.statusCode, unknown.json().message]).toEqual([422, msg.unknownOrEnded]);
    expect(unknown.json().fields).toEqual({ discountCode: msg.unknownOrEnded });

    const big = await code({ kind: "amount", amount: 5, minSubtotal: 50 });
    const low = await total(buyer, p.id, 2, big.code);
    expect([low.statusCode, low.json().message]).toEqual([
      422,
      "Spend $50.00 or more to use this code",
    ]);
    const refused = await order(buyer, p.id, 2, 20, big.code);
    expect([refused.statusCode, refused.json().message]).toEqual([
      422,
      "Spend $50.00 or more to use this code",
    ]);
    expect((await call(buyer, "GET", "/api/orders")).json()).toHaveLength(0);

    // One use in all: the first order takes it, the next buyer is told it is used up.
    const once = await code({ kind: "amount", amount: 1, usageLimit: 1 });
    const first = (await total(buyer, p.id, 2, once.code)).json();
    expect((await order(buyer, p.id, 2, first.total, once.code)).statusCode).toBe(201);
    const other = await signUp(t.app);
    const second = await order(other, p.id, 2, first.total, once.code);
    expect([second.statusCode, second.json().message]).toEqual([422, msg.usedUp]);
  });

  test("a quote's acceptance and its total refuse a code in words: its prices are agreed", async () => {
    const buyer = await signUp(t.app);
    for (const url of [`/api/quotes/${randomUUID()}/accept`, `/api/quotes/${randomUUID()}/total`]) {
      const res = await call(buyer, "POST", url, { ...where, discountCode: "SPRING10" });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toContain(quoteMessages.noDiscountCode);
    }
    expect(quoteMessages.noDiscountCode).toBe(
      "Discount codes do not apply to quotes: a quote's prices are already agreed with you",
    );
  });
});
