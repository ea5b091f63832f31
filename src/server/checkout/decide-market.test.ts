import { expect, test } from "vitest";
import { loadConfig } from "../config";
import { inMarket, type CompanyMember, type PricingContext } from "../pricing/pricing";
import {
  EUROPE,
  oneLineFacts,
  oneMethodZone,
  productFacts,
  TEXAS_SALES_TAX,
} from "../../../tests/support/placement-facts";
import { decidePlacement } from "./decide";

// The checkout's decision in a market (docs/pricing.md "Markets and currencies"), without a
// database: the parts through `inMarket`, the shipping rates converted by the same rule, the
// money limits (set in the store's currency) compared with the total brought back to it and
// named in the market's currency. The default market decides exactly as no market.

const limits = loadConfig({}).holdLimits; // 25,000.00 held at most
const usd: PricingContext = { currency: "USD" };
const eur = inMarket(usd, EUROPE);

const part = productFacts("a", { weightGrams: 1_000 });
// Texas: $19.95 shipping, free from $100.00; 6.25 % tax, on shipping too.
const texas = {
  place: { country: "US", region: "TX" },
  zones: [
    oneMethodZone(
      { id: "us", name: "US", countries: ["US"] },
      { kind: "free_over", priceCents: 1_995, freeOverCents: 10_000 },
    ),
  ],
  rates: [TEXAS_SALES_TAX],
};
const facts = (qty: number, heldCents = 0) => oneLineFacts(part, qty, texas, heldCents);

test("in Europe: the parts and the shipping rate converted, tax on what they come to", () => {
  const decision = decidePlacement(facts(3), { limits, pricing: eur });
  // $12.50 × 0.92 = €11.50; the rate's $19.95 × 0.92 = €18.354 → €18.35.
  expect(decision.lines[0]).toMatchObject({ unitPriceCents: 1150, taxCents: 216 });
  // 6.25 % of €34.50 is 2.15625 → €2.16; of €18.35, 1.146875 → €1.15.
  expect(decision.charges).toMatchObject({ shippingCents: 1835, taxCents: 216 + 115 });
  expect(decision.totalCents).toBe(3450 + 1835 + 216 + 115);
  // Free from $100.00, which is €92.00: eight parts at €11.50 reach it.
  expect(decidePlacement(facts(8), { limits, pricing: eur })).toMatchObject({
    charges: { shippingCents: 0, taxCents: 575 },
    totalCents: 9200 + 575,
  });
});

test("the default market decides exactly as no market", () => {
  const usMarket = { code: "US", currency: "USD", rate: 1, rounding: "cent" as const };
  expect(decidePlacement(facts(3), { limits, pricing: inMarket(usd, usMarket) })).toEqual(
    decidePlacement(facts(3), { limits, pricing: usd }),
  );
});

test("limits in the store's currency compare the order brought back, and are named in EUR", () => {
  const member = (over: Partial<CompanyMember>): PricingContext =>
    inMarket(
      {
        currency: "USD",
        customerId: "u1",
        companyId: "c1",
        member: {
          role: "buyer",
          orderLimitCents: null,
          monthlyLimitCents: null,
          spentThisMonthCents: 0,
          otherOwners: 1,
          ...over,
        },
      },
      EUROPE,
    );
  const noPlace = oneLineFacts(part, 4);
  // 4 × €11.50 = €46.00, which is $50.00 back in the store's currency.
  const order = (over: Partial<CompanyMember>) =>
    decidePlacement(noPlace, { limits, pricing: member(over) });
  expect(order({ orderLimitCents: 5000 })).toMatchObject({ totalCents: 4600, approval: null });
  expect(order({ orderLimitCents: 4999 }).approval).toEqual({
    reason: "order_limit",
    limitCents: 4999,
  });
  // $49.99 × 0.92 = €45.9908 → €45.99.
  expect(() => order({ role: "owner", orderLimitCents: 4999, otherOwners: 0 })).toThrow(
    "over the per-order limit of €45.99",
  );
  // The value held: $50.00 more than the room left is refused, its limit named in EUR.
  const held = oneLineFacts(part, 4, undefined, limits.maxValueCents - 4999);
  expect(() => decidePlacement(held, { limits, pricing: eur })).toThrow(/at most €/);
  const fits = oneLineFacts(part, 4, undefined, limits.maxValueCents - 5000);
  expect(decidePlacement(fits, { limits, pricing: eur }).totalCents).toBe(4600);
});
