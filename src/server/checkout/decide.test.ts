import { expect, test } from "vitest";
import { loadConfig } from "../config";
import { holdTime } from "../inventory/holds";
import {
  decidePlacement,
  NOTHING_CHARGED,
  ORDER_TOO_LARGE,
  type ProductFacts,
  type Standing,
} from "./decide";
import {
  METHOD_ID,
  oneMethodZone,
  productFacts,
  TEXAS_SALES_TAX,
} from "../../../tests/support/placement-facts";

// The rules of placing an order, without a database: what the read found goes in, an order's
// lines and total (or the first broken rule, with the spec's words) come out.

const limits = loadConfig({}).holdLimits; // half the stock, 10 units free, 25,000.00 held
const rules = { limits, pricing: { currency: "USD" } };

const facts = (
  wanted: { productId: string; qty: number }[],
  products: ProductFacts[],
  standing: Partial<Standing> = {},
) => ({
  wanted,
  products: new Map(products.map((p) => [p.id, p])),
  standing: { trusted: true, heldCents: 0, unpaidProductIds: [], ...standing },
});

test("an order's lines carry the product as sold at its price, and the total is their sum", () => {
  const decision = decidePlacement(
    facts(
      [
        { productId: "a", qty: 3 },
        { productId: "b", qty: 2 },
      ],
      [productFacts("a"), productFacts("b", { listPriceCents: 999, partNumber: null })],
    ),
    rules,
  );
  expect(decision).toEqual({
    lines: [
      {
        productId: "a",
        qty: 3,
        productName: "Part a",
        partNumber: "PN-a",
        unitPriceCents: 1250,
        taxCents: 0,
        coreDepositCents: 0,
      },
      {
        productId: "b",
        qty: 2,
        productName: "Part b",
        partNumber: null,
        unitPriceCents: 999,
        taxCents: 0,
        coreDepositCents: 0,
      },
    ],
    // No place named: nothing but the lines.
    charges: { ...NOTHING_CHARGED, taxNote: null, buyerTaxId: null },
    totalCents: 3 * 1250 + 2 * 999,
    // No company, no limits: an ordinary unpaid order.
    approval: null,
  });
});

test("each broken rule refuses with the words a customer is shown", () => {
  const refusal = (
    f: ReturnType<typeof facts>,
    r: Parameters<typeof decidePlacement>[1] = rules,
  ) => {
    try {
      decidePlacement(f, r);
    } catch (err) {
      return err;
    }
    throw new Error("the order was not refused");
  };
  expect(refusal(facts([], []))).toMatchObject({ statusCode: 422, message: "Your cart is empty" });
  expect(
    refusal(
      facts([{ productId: "a", qty: 1 }], [productFacts("a")], {
        heldCents: 0,
        unpaidProductIds: ["a"],
      }),
    ),
  ).toMatchObject({
    statusCode: 409,
    message: "You have already ordered this product",
    fields: { a: "You have already ordered this product" },
  });
  expect(refusal(facts([{ productId: "x", qty: 1 }], []))).toMatchObject({
    statusCode: 404,
    fields: { x: "Product not found" },
  });
  expect(
    refusal(facts([{ productId: "a", qty: 4 }], [productFacts("a", { minimumOrder: 5 })])),
  ).toMatchObject({
    statusCode: 422,
    message: "please order at least 5",
  });
  expect(
    refusal(facts([{ productId: "a", qty: 8 }], [productFacts("a", { available: 7 })])),
  ).toMatchObject({
    statusCode: 422,
    message: "please order less then 7",
  });
  // Half of 100 on sale may be held by one line.
  expect(refusal(facts([{ productId: "a", qty: 51 }], [productFacts("a")]))).toMatchObject({
    statusCode: 422,
    code: "hold_limit",
    fields: { a: expect.stringContaining("at most 50 of this part") },
  });
  expect(
    refusal(
      facts([{ productId: "a", qty: 50 }], [productFacts("a", { listPriceCents: 2_000_000_000 })]),
    ),
  ).toMatchObject({ statusCode: 422, message: ORDER_TOO_LARGE });
  expect(
    refusal(facts([{ productId: "a", qty: 2 }], [productFacts("a")]), {
      ...rules,
      expectedTotalCents: 2499,
    }),
  ).toMatchObject({ statusCode: 409 });
  expect(
    refusal(
      facts([{ productId: "a", qty: 2 }], [productFacts("a")], {
        heldCents: 2_499_000,
        unpaidProductIds: [],
      }),
    ),
  ).toMatchObject({ statusCode: 422, message: expect.stringContaining("$25,000.00") });
});

test("the total the customer was shown places the order when it is still the total", () => {
  const decision = decidePlacement(facts([{ productId: "a", qty: 2 }], [productFacts("a")]), {
    ...rules,
    expectedTotalCents: 2500,
  });
  expect(decision.totalCents).toBe(2500);
});

test("new customers together hold at most a share of a product, and for a short while", () => {
  // 2,200 on sale and 400 held in unpaid orders, 300 of them by new customers: 20 % of 2,600 is
  // 520, so 220 are left for new customers.
  const pads = productFacts("a", { available: 2200, heldAll: 400, heldByNew: 300 });
  const newCustomer = { trusted: false };
  expect(() =>
    decidePlacement(facts([{ productId: "a", qty: 221 }], [pads], newCustomer), rules),
  ).toThrow(
    "Accounts that have not paid for an order yet can hold only 220 more of this part right now; pay for an order (see My Items) to order more",
  );
  expect(
    decidePlacement(facts([{ productId: "a", qty: 220 }], [pads], newCustomer), rules).totalCents,
  ).toBe(220 * 1250);
  // Trusted customers keep the share of their own (half of what is on sale).
  expect(decidePlacement(facts([{ productId: "a", qty: 900 }], [pads]), rules).lines).toHaveLength(
    1,
  );
  const full = productFacts("a", { available: 100, heldAll: 25, heldByNew: 25 });
  expect(() =>
    decidePlacement(facts([{ productId: "a", qty: 1 }], [full], newCustomer), rules),
  ).toThrow(/cannot hold more of this part/);
  // While there is room at all, one minimum order fits.
  const boxed = productFacts("a", { available: 180, minimumOrder: 50, heldAll: 0, heldByNew: 0 });
  expect(
    decidePlacement(facts([{ productId: "a", qty: 50 }], [boxed], newCustomer), rules).lines,
  ).toHaveLength(1);
  const hour = 3_600_000;
  expect(holdTime({ trusted: false }, limits, 48 * hour)).toBe(30 * 60_000);
  expect(holdTime({ trusted: true }, limits, 48 * hour)).toBe(48 * hour);
  expect(holdTime({ trusted: false }, limits, 60_000)).toBe(60_000);
});

const texas = {
  place: { country: "US", region: "TX" },
  zones: [
    oneMethodZone(
      { id: "us", name: "US", countries: ["US"] },
      {
        name: "Express",
        estimate: "1-2 days",
        kind: "weight",
        priceCents: 0,
        bands: [{ upToGrams: 5_000, priceCents: 1_995 }],
      },
    ),
  ],
  rates: [TEXAS_SALES_TAX],
};

test("with a place: shipping by the products' weight, tax per line and on shipping, in the total", () => {
  const decision = decidePlacement(
    {
      ...facts(
        [
          { productId: "a", qty: 3 },
          { productId: "b", qty: 2 },
        ],
        [
          productFacts("a", { weightGrams: 1_000 }),
          productFacts("b", { listPriceCents: 999, weightGrams: 900 }),
        ],
      ),
      charges: texas,
    },
    { ...rules, shippingMethodId: METHOD_ID },
  );
  // 3750 → 234.375 → 234; 1998 → 124.875 → 125; shipping 1995 → 124.6875 → 125.
  expect(decision.lines.map((l) => l.taxCents)).toEqual([234, 125]);
  expect(decision.charges).toEqual({
    shippingCents: 1995,
    shippingMethod: "Express",
    taxCents: 484,
    shippingTaxCents: 125,
    coreDepositCents: 0,
    taxName: "Texas sales tax",
    taxRateMillipercent: 6250,
    taxNote: null,
    buyerTaxId: null,
  });
  expect(decision.totalCents).toBe(3750 + 1998 + 1995 + 484);
});

test("a total the customer was not shown is a 409 carrying the new figures", () => {
  try {
    decidePlacement(
      {
        ...facts([{ productId: "a", qty: 2 }], [productFacts("a", { weightGrams: 100 })]),
        charges: texas,
      },
      { ...rules, expectedTotalCents: 2500 },
    );
    expect.unreachable();
  } catch (err) {
    // 2500 + 1995 shipping + 156 (156.25) + 125 (124.6875) tax.
    expect(err).toMatchObject({
      statusCode: 409,
      message: "Prices or stock changed while you checked out; please check your order again",
      fields: { subtotal: "25", shipping: "19.95", tax: "2.81", total: "47.76" },
    });
  }
});

test("an order too heavy for every method is refused with the reason", () => {
  expect(() =>
    decidePlacement(
      {
        ...facts([{ productId: "a", qty: 6 }], [productFacts("a", { weightGrams: 1_000 })]),
        charges: texas,
      },
      rules,
    ),
  ).toThrow("No shipping method takes an order this heavy (6.0 kg)");
});

test("a company viewer cannot order; an order over a buyer's per-order or monthly limit awaits approval", () => {
  const member = (over: object) => ({
    role: "buyer" as const,
    orderLimitCents: null,
    monthlyLimitCents: null,
    spentThisMonthCents: 0,
    otherOwners: 1,
    ...over,
  });
  const order = (m: object) =>
    decidePlacement(facts([{ productId: "a", qty: 4 }], [productFacts("a")]), {
      limits,
      pricing: { currency: "USD", customerId: "u1", companyId: "c1", member: member(m) },
    });
  expect(() => order({ role: "viewer" })).toThrow(
    "Viewers of a company see its orders but cannot place them",
  );
  // 4 × $12.50 = $50.00: at the limit is within it.
  expect(order({ orderLimitCents: 5000 })).toMatchObject({ totalCents: 5000, approval: null });
  expect(order({ orderLimitCents: 4999 })).toMatchObject({
    totalCents: 5000,
    approval: { reason: "order_limit", limitCents: 4999 },
  });
  expect(order({ monthlyLimitCents: 20_000, spentThisMonthCents: 15_000 }).approval).toBeNull();
  expect(order({ monthlyLimitCents: 20_000, spentThisMonthCents: 15_001 }).approval).toEqual({
    reason: "monthly_limit",
    limitCents: 20_000,
  });
  // The per-order limit is named first when both are broken.
  expect(
    order({ orderLimitCents: 100, monthlyLimitCents: 100, spentThisMonthCents: 0 }).approval,
  ).toEqual({ reason: "order_limit", limitCents: 100 });
  // Owners order as buyers do; a customer of no company has no limit.
  expect(order({ role: "owner" }).approval).toBeNull();
  // Over the limit with nobody to approve it (no other owner): refused, not left to expire.
  expect(() => order({ role: "owner", orderLimitCents: 4999, otherOwners: 0 })).toThrow(
    "This order is over the per-order limit of $49.99, and your company has no other owner to approve it: order less, or ask us to change your limit",
  );
  expect(order({ role: "owner", orderLimitCents: 5000, otherOwners: 0 }).approval).toBeNull();
  expect(
    decidePlacement(facts([{ productId: "a", qty: 4 }], [productFacts("a")]), rules).approval,
  ).toBeNull();
});

test("an order awaiting approval still meets the hold rules: the value held is counted", () => {
  const f = facts([{ productId: "a", qty: 4 }], [productFacts("a")]);
  expect(() =>
    decidePlacement(
      { ...f, standing: { ...f.standing, heldCents: limits.maxValueCents - 4999 } },
      {
        limits,
        pricing: {
          currency: "USD",
          customerId: "u1",
          companyId: "c1",
          member: {
            role: "buyer",
            orderLimitCents: 1,
            monthlyLimitCents: null,
            spentThisMonthCents: 0,
            otherOwners: 1,
          },
        },
      },
    ),
  ).toThrow("Unpaid orders may hold at most");
});

test("an accepted quote's prices replace the pricing module's for its lines, even above list", () => {
  const decision = decidePlacement(
    facts(
      [
        { productId: "a", qty: 3 },
        { productId: "b", qty: 1 },
      ],
      [productFacts("a"), productFacts("b")],
    ),
    {
      ...rules,
      quotedPrices: new Map([
        ["a", 777],
        ["b", 1300],
      ]),
    },
  );
  expect(decision.lines.map((l) => l.unitPriceCents)).toEqual([777, 1300]);
  expect(decision.totalCents).toBe(3 * 777 + 1300);
});
