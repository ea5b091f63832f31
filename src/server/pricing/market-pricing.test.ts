import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { roundingRules } from "../../contract/markets";
import { convertMinor } from "./convert";
import {
  inMarket,
  priceLines,
  priceTiers,
  type GroupRule,
  type LineToPrice,
  type PricingContext,
  type PricingMarket,
} from "./pricing";

// The pricing module in a market (docs/pricing.md "Markets and currencies"): the price is decided
// in the store's currency (list price, breaks, the group's rule, the company's price), then
// converted once with the market's rate and rounding rule; every door asks `priceLines`.

const cents = fc.integer({ min: 0, max: 5_000_000 });
const breaks = fc
  .uniqueArray(fc.record({ minQty: fc.integer({ min: 2, max: 500 }), unitPriceCents: cents }), {
    selector: (b) => b.minQty,
    maxLength: 3,
  })
  .map((bs) => [...bs].sort((a, b) => a.minQty - b.minQty));
const rule: fc.Arbitrary<GroupRule> = fc.record({
  scope: fc.constantFrom("part", "brand", "category" as const),
  percent: fc.integer({ min: 1, max: 100 }),
  category: fc.constant("Brakes"),
  brand: fc.constant("Bosch"),
});
const context: fc.Arbitrary<PricingContext> = fc.record({
  currency: fc.constant("USD"),
  group: fc.constant({ name: "Garage", tradeMinimums: true }),
  rules: fc.array(rule, { maxLength: 3 }).map((rs) => new Map([["p", rs]])),
  overlay: fc.option(
    fc.record({ unitPriceCents: cents, breaks }).map((e) => new Map([["p", e]])),
    { nil: undefined },
  ),
});
const line: fc.Arbitrary<LineToPrice> = fc.record({
  productId: fc.constant("p"),
  qty: fc.integer({ min: 1, max: 1000 }),
  listPriceCents: cents,
  publicBreaks: breaks,
});
const market: fc.Arbitrary<PricingMarket> = fc.record({
  code: fc.constant("EU"),
  currency: fc.constant("EUR"),
  rate: fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 1_000_000),
  rounding: fc.constantFrom(...roundingRules),
});

describe("prices in a market", () => {
  test("each unit price is the one decided in the store's currency, converted once; its line is unit × qty, never negative", () => {
    fc.assert(
      fc.property(context, fc.array(line, { minLength: 1, maxLength: 5 }), market, (c, ls, m) => {
        const base = priceLines(c, ls);
        const converted = priceLines(inMarket(c, m), ls);
        converted.forEach((l, i) => {
          expect(l.unitPriceCents).toBe(convertMinor(base[i]!.unitPriceCents, m.rate, m.rounding));
          expect(l.lineTotalCents).toBe(l.unitPriceCents * l.qty);
          expect(l.unitPriceCents).toBeGreaterThanOrEqual(0);
          // What gave the price is said the same way in every market.
          expect(l.note).toBe(base[i]!.note);
        });
      }),
    );
  });

  test("the default market (rate 1, to the cent) prices exactly as the store's currency", () => {
    const us: PricingMarket = { code: "US", currency: "USD", rate: 1, rounding: "cent" };
    fc.assert(
      fc.property(context, fc.array(line, { maxLength: 5 }), (c, ls) => {
        expect(priceLines(inMarket(c, us), ls)).toEqual(priceLines(c, ls));
      }),
    );
  });

  test("the product page's tiers are the cart's prices at those quantities, and still fall", () => {
    fc.assert(
      fc.property(context, line, market, (c, l, m) => {
        const priced = inMarket(c, m);
        const product = {
          id: "p",
          listPriceCents: l.listPriceCents,
          minimumOrder: 1,
          publicBreaks: l.publicBreaks,
        };
        const tiers = priceTiers(priced, product);
        for (const [i, tier] of tiers.entries()) {
          const [cart] = priceLines(priced, [{ ...l, qty: tier.minQty }]);
          expect(tier.unitPriceCents).toBe(cart!.unitPriceCents);
          if (i > 0) expect(tier.unitPriceCents).toBeLessThan(tiers[i - 1]!.unitPriceCents);
        }
      }),
    );
  });

  test("by example: a garage's 20 % off a $32.33 part is $25.86, €23.79 at 0.92 to the cent, €23.99 ending in .99", () => {
    const garage: PricingContext = {
      currency: "USD",
      group: { name: "Garage", tradeMinimums: true },
      rules: new Map([
        ["p", [{ scope: "category", percent: 20, category: "Brakes", brand: null } as GroupRule]],
      ]),
    };
    const l: LineToPrice = { productId: "p", qty: 2, listPriceCents: 3233, publicBreaks: [] };
    const eu = (rounding: PricingMarket["rounding"]) =>
      inMarket(garage, { code: "EU", currency: "EUR", rate: 0.92, rounding });
    expect(priceLines(garage, [l])[0]).toMatchObject({ unitPriceCents: 2586 });
    expect(priceLines(eu("cent"), [l])[0]).toMatchObject({
      unitPriceCents: 2379,
      lineTotalCents: 4758,
      note: "Garage price: 20 % off brakes",
    });
    expect(priceLines(eu("end99"), [l])[0]).toMatchObject({ unitPriceCents: 2399 });
    expect(eu("cent").currency).toBe("EUR");
  });
});
