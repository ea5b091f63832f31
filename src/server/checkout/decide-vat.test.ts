import fc from "fast-check";
import { expect, test } from "vitest";
import { loadConfig } from "../config";
import { inMarket, priceLines, vatIncludedNote, type PricingContext } from "../pricing/pricing";
import {
  EUROPE,
  EUROPE_VAT_INCLUDED,
  oneLineFacts,
  oneMethodZone,
  productFacts,
} from "../../../tests/support/placement-facts";
import { decidePlacement } from "./decide";

// Consumer prices with VAT included (docs/tax.md "Prices with VAT included"), without a
// database: in Europe (prices with VAT included for consumers) a consumer is shown gross prices
// at the rate of the country the market was chosen by, pays the gross lines plus the gross
// shipping at the delivery country's rate, and the tax is the VAT that total contains; a trade
// buyer (a company member) in the same market pays net prices with the tax added.

const limits = loadConfig({}).holdLimits;
// Europe: shown before checkout at Germany's 19 % (the country the market was chosen by).
const consumer = inMarket({ currency: "USD", customerId: "u1" }, EUROPE_VAT_INCLUDED);
const trade: PricingContext = inMarket(
  { currency: "USD", customerId: "u2", companyId: "c1" },
  EUROPE_VAT_INCLUDED,
);

const part = productFacts("a", { weightGrams: 1_000 });
const vat = (country: string, rateMillipercent: number, appliesToShipping = true) => ({
  id: country,
  country,
  region: "",
  name: `VAT ${country}`,
  rateMillipercent,
  appliesToShipping,
});
// $10.00 shipping anywhere in Europe (€9.20); VAT 19 % in Germany, 20 % in France.
const to = (country: string) => ({
  place: { country, region: null },
  zones: [
    oneMethodZone(
      { id: "eu", name: "Europe", countries: ["DE", "FR"] },
      { kind: "flat", priceCents: 1_000 },
    ),
  ],
  rates: [vat("DE", 19_000), vat("FR", 20_000)],
});
const facts = (qty: number, country = "DE") => oneLineFacts(part, qty, to(country));

test("a consumer is shown gross prices at the market's rate, a trade buyer net ones", () => {
  const line = { productId: "a", qty: 3, listPriceCents: 1250, publicBreaks: [] };
  // $12.50 is €11.50 net; with 19 % VAT (€2.185 → €2.19) €13.69 a unit, €41.07 for three.
  expect(priceLines(consumer, [line])[0]).toMatchObject({
    unitPriceCents: 1369,
    lineTotalCents: 4107,
  });
  expect(priceLines(trade, [line])[0]).toMatchObject({ unitPriceCents: 1150 });
  // The words beside a consumer's price; none beside a trade buyer's.
  expect(vatIncludedNote(consumer)).toBe("incl. 19 % VAT");
  expect(vatIncludedNote(trade)).toBeNull();
  // A market without VAT-inclusive prices, or one passed without its rate, prices net.
  const net = { ...EUROPE_VAT_INCLUDED, pricesIncludeTax: false };
  expect(priceLines(inMarket({ currency: "USD" }, net), [line])[0]!.unitPriceCents).toBe(1150);
  const noRate = { ...EUROPE, pricesIncludeTax: true };
  expect(priceLines(inMarket({ currency: "USD" }, noRate), [line])[0]!.unitPriceCents).toBe(1150);
});

test("a consumer's order to Germany: gross lines plus gross shipping, the VAT contained", () => {
  const decision = decidePlacement(facts(3), { limits, pricing: consumer });
  // €41.07 contains €6.56 of VAT (41.07 / 1.19 = 34.51); €9.20 shipping is €10.95 gross
  // (€1.748 → €1.75 VAT), which contains €1.75.
  expect(decision.lines[0]).toMatchObject({ unitPriceCents: 1369, taxCents: 656 });
  expect(decision.charges).toMatchObject({
    shippingCents: 1095,
    shippingTaxCents: 175,
    taxCents: 656 + 175,
    taxName: "VAT DE",
    taxRateMillipercent: 19_000,
    pricesIncludeTax: true,
  });
  expect(decision.totalCents).toBe(4107 + 1095);
});

test("delivered to France, the consumer's prices include France's 20 %", () => {
  const decision = decidePlacement(facts(3, "FR"), { limits, pricing: consumer });
  // €11.50 + 20 % = €13.80 a unit; €9.20 shipping is €11.04.
  expect(decision.lines[0]).toMatchObject({ unitPriceCents: 1380, taxCents: 690 });
  expect(decision.charges).toMatchObject({ shippingCents: 1104, taxCents: 690 + 184 });
  expect(decision.totalCents).toBe(4140 + 1104);
});

test("a trade buyer in the same market pays net prices with the tax added", () => {
  const decision = decidePlacement(facts(3), { limits, pricing: trade });
  // €34.50 + €9.20, 19 % on each: €6.555 → €6.56 and €1.748 → €1.75.
  expect(decision.lines[0]).toMatchObject({ unitPriceCents: 1150, taxCents: 656 });
  expect(decision.charges).toMatchObject({ shippingCents: 920, taxCents: 656 + 175 });
  expect(decision.charges.pricesIncludeTax).toBeUndefined();
  expect(decision.totalCents).toBe(3450 + 920 + 656 + 175);
});

test("a code comes off the gross prices: the total is the gross lines less it plus the gross shipping", () => {
  // 10 % off everything: €41.07 less €4.11 is €36.96, which contains €5.90 of VAT.
  const discount = {
    code: {
      id: "c",
      code: "SPRING10",
      kind: "percent" as const,
      percent: 10,
      amountCents: null,
      scope: "all" as const,
      category: null,
      productId: null,
      active: true,
      startsOn: null,
      endsOn: null,
      minSubtotalCents: 0,
      usageLimit: null,
      perCustomerLimit: null,
      usedCount: 0,
      customerGroupId: null,
    },
    buyer: { today: "2026-12-05", groupId: null, usesByBuyer: 0, currency: "EUR" },
    categories: new Map([["a", "Brakes"]]),
  };
  const decision = decidePlacement(facts(3), { limits, pricing: consumer, discount });
  expect(decision.lines[0]).toMatchObject({ discountCents: 411, taxCents: 590 });
  expect(decision.charges).toMatchObject({ shippingCents: 1095, taxCents: 590 + 175 });
  expect(decision.totalCents).toBe(4107 - 411 + 1095);
});

test("a confirmed total is the gross total the consumer was shown", () => {
  expect(() =>
    decidePlacement(facts(3), { limits, pricing: consumer, expectedTotalCents: 5202 }),
  ).not.toThrow();
  expect(() =>
    decidePlacement(facts(3), { limits, pricing: consumer, expectedTotalCents: 5202 + 831 }),
  ).toThrow();
});

test("property: the gross total shown is the total charged; the VAT contained is never negative nor above it", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 500_000 }),
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 0, max: 30_000 }),
      fc.boolean(),
      fc.integer({ min: 0, max: 5_000 }),
      (listPriceCents, qty, rateMillipercent, appliesToShipping, shipCents) => {
        const charges = {
          ...to("DE"),
          rates: [vat("DE", rateMillipercent, appliesToShipping)],
        };
        charges.zones[0]!.methods[0]!.priceCents = shipCents;
        const decision = decidePlacement(
          {
            ...facts(qty),
            products: new Map([["a", { ...part, listPriceCents }]]),
            charges,
          },
          { limits: { ...limits, maxValueCents: Number.MAX_SAFE_INTEGER }, pricing: consumer },
        );
        const [line] = decision.lines;
        const shown = priceLines({ ...consumer, taxIncluded: { rateMillipercent } }, [
          { productId: "a", qty, listPriceCents, publicBreaks: [] },
        ])[0]!;
        expect(line!.unitPriceCents).toBe(shown.unitPriceCents);
        expect(decision.totalCents).toBe(shown.lineTotalCents + decision.charges.shippingCents);
        expect(decision.charges.taxCents).toBeGreaterThanOrEqual(0);
        expect(decision.charges.taxCents).toBeLessThanOrEqual(decision.totalCents);
        expect(line!.taxCents).toBeLessThanOrEqual(shown.lineTotalCents);
      },
    ),
  );
});
