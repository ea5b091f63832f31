import { expect, test } from "vitest";
import type { ShippingZoneRule } from "../shipping/rates";
import type { TaxRateRule } from "../tax/rules";
import { TEXAS_SALES_TAX } from "../../../tests/support/placement-facts";
import { computeCharges, requireShippable, type ChargeFacts } from "./estimate";

const zones: ShippingZoneRule[] = [
  {
    id: "us",
    name: "US",
    countries: ["US"],
    regions: [],
    methods: [
      {
        id: "std",
        name: "Standard",
        estimate: "3-5 days",
        kind: "free_over",
        priceCents: 995,
        freeOverCents: 25_000,
        bands: [],
      },
      {
        id: "exp",
        name: "Express",
        estimate: "1-2 days",
        kind: "weight",
        priceCents: 0,
        freeOverCents: null,
        bands: [{ upToGrams: 5_000, priceCents: 1_995 }],
      },
    ],
  },
];
const rates: TaxRateRule[] = [TEXAS_SALES_TAX];
const texas: ChargeFacts = { place: { country: "US", region: "TX" }, zones, rates };
const lines = [
  { lineTotalCents: 2 * 1299, weightGrams: 2 * 350 },
  { lineTotalCents: 4 * 899, weightGrams: 4 * 60 },
];

test("lines + the chosen method + tax on both, rounded per line", () => {
  const c = computeCharges(lines, texas, "exp", { lenient: false });
  expect(c.subtotalCents).toBe(6194);
  expect(c.shippingCents).toBe(1995);
  // 6.25 % of 2598 = 162.375 → 162; of 3596 = 224.75 → 225; of 1995 = 124.6875 → 125.
  expect(c.lineTax).toEqual([162, 225]);
  expect(c.shippingTaxCents).toBe(125);
  expect(c.taxCents).toBe(512);
  expect(c.totalCents).toBe(6194 + 1995 + 512);
  expect(c.options.map((o) => [o.method.id, o.priceCents])).toEqual([
    ["std", 995],
    ["exp", 1995],
  ]);
  expect(c.problem).toBeNull();
});

test("no method chosen: the cheapest serving one is charged", () => {
  const c = computeCharges(lines, texas, null, { lenient: false });
  expect(c.method?.method.id).toBe("std");
  expect(c.shippingCents).toBe(995);
});

test("a chosen method that no longer serves: the quote falls back, the checkout refuses", () => {
  const heavy = [{ lineTotalCents: 1000, weightGrams: 6_000 }];
  const quote = computeCharges(heavy, texas, "exp", { lenient: true });
  expect(quote.method?.method.id).toBe("std");
  expect(quote.problem).toBeNull();
  const checkout = computeCharges(heavy, texas, "exp", { lenient: false });
  expect(() => requireShippable(checkout)).toThrow(
    "The shipping method you chose does not serve this address (any more); choose another",
  );
});

test("no place: lines only, nothing else charged", () => {
  const c = computeCharges(lines, { place: null, zones, rates }, "exp", { lenient: false });
  expect(c).toMatchObject({ shippingCents: 0, taxCents: 0, totalCents: 6194, problem: null });
  expect(c.lineTax).toEqual([0, 0]);
});

test("a place nobody ships to is refused with the reason (422)", () => {
  const c = computeCharges(lines, { place: { country: "GB", region: null }, zones, rates }, null, {
    lenient: false,
  });
  expect(c.problem).toBe("We do not ship to United Kingdom");
  try {
    requireShippable(c);
    expect.unreachable();
  } catch (err) {
    expect(err).toMatchObject({ statusCode: 422, code: "not_shippable" });
  }
});

test("free shipping from the threshold, on the lines' net value (before tax)", () => {
  const c = computeCharges([{ lineTotalCents: 25_000, weightGrams: 0 }], texas, "std", {
    lenient: false,
  });
  expect(c.shippingCents).toBe(0);
  expect(c.taxCents).toBe(1563); // 1562.5 → 1563
  expect(c.totalCents).toBe(26_563);
});

test("core deposits are added to the total untaxed and do not count towards free shipping", () => {
  // Parts 240.00 (under the 250.00 threshold) + deposits 2 × 45.00.
  const withDeposit = [{ lineTotalCents: 24_000, weightGrams: 5_000, coreDepositCents: 9_000 }];
  const c = computeCharges(withDeposit, texas, "std", { lenient: false });
  expect(c.subtotalCents).toBe(24_000);
  expect(c.coreDepositCents).toBe(9_000);
  expect(c.shippingCents).toBe(995);
  // 6.25 % of 24000 = 1500; of 995 = 62.1875 → 62: the deposit is not taxed.
  expect(c.lineTax).toEqual([1500]);
  expect(c.taxCents).toBe(1562);
  expect(c.totalCents).toBe(24_000 + 9_000 + 995 + 1562);
  const none = computeCharges(withDeposit, { place: null, zones: [], rates: [] }, null, {
    lenient: true,
  });
  expect(none.totalCents).toBe(33_000);
});
