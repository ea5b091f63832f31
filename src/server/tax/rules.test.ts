import { expect, test } from "vitest";
import {
  milliFromPercent,
  percentFromMilli,
  rateFor,
  taxOnCents,
  taxOrder,
  type TaxRateRule,
} from "./rules";

const rate = (country: string, region: string, percent: number, shipping = true): TaxRateRule => ({
  id: `${country}-${region}`,
  country,
  region,
  name: `${country}${region} tax`,
  rateMillipercent: Math.round(percent * 1000),
  appliesToShipping: shipping,
});

const rates = [
  rate("US", "TX", 6.25),
  rate("US", "CA", 7.25, false),
  rate("DE", "", 19),
  rate("US", "", 1),
];

test("a region's own rate wins over its country's, whatever the order of the list", () => {
  expect(rateFor(rates, { country: "US", region: "TX" })?.id).toBe("US-TX");
  expect(rateFor([...rates].reverse(), { country: "US", region: "TX" })?.id).toBe("US-TX");
  expect(rateFor(rates, { country: "US", region: "tx" })?.id).toBe("US-TX");
});

test("a region without its own rate, or an unknown region, gets the country's rate", () => {
  expect(rateFor(rates, { country: "US", region: "OR" })?.id).toBe("US-");
  expect(rateFor(rates, { country: "US", region: null })?.id).toBe("US-");
  expect(rateFor(rates, { country: "DE", region: "BY" })?.id).toBe("DE-");
});

test("a country without any rate is not taxed", () => {
  expect(rateFor(rates, { country: "FR", region: null })).toBeNull();
  expect(taxOrder([1000, 2000], 500, null)).toEqual({ lines: [0, 0], shipping: 0, total: 0 });
});

test("tax is rounded half up to a whole cent", () => {
  // 6.25 % of 8 cents = 0.5 → 1; of 7 cents = 0.4375 → 0; of 24 cents = 1.5 → 2.
  expect(taxOnCents(8, 6250)).toBe(1);
  expect(taxOnCents(7, 6250)).toBe(0);
  expect(taxOnCents(24, 6250)).toBe(2);
  // 19 % of 1050 = 199.5 → 200; of 1049 = 199.31 → 199.
  expect(taxOnCents(1050, 19000)).toBe(200);
  expect(taxOnCents(1049, 19000)).toBe(199);
  // 8.875 % of 10000 = 887.5 → 888.
  expect(taxOnCents(10000, 8875)).toBe(888);
  expect(taxOnCents(0, 8875)).toBe(0);
});

test("tax on the largest order the database holds stays exact", () => {
  const max = 2_147_483_647;
  expect(taxOnCents(max, 100_000)).toBe(max);
  expect(taxOnCents(max, 23_000)).toBe(493_921_239); // 493,921,238.81 → …239
});

test("a negative or fractional amount is a programming error", () => {
  expect(() => taxOnCents(-1, 1000)).toThrow(RangeError);
  expect(() => taxOnCents(1.5, 1000)).toThrow(RangeError);
});

test("each line is rounded on its own and the order's tax is the sum of the roundings", () => {
  // Two lines of 8 cents at 6.25 %: 0.5 + 0.5 → 1 + 1 = 2 (rounding the sum, 1.0, would give 1).
  const tax = taxOrder([8, 8], 0, rate("US", "TX", 6.25));
  expect(tax).toEqual({ lines: [1, 1], shipping: 0, total: 2 });
});

test("shipping is taxed when the rate says so", () => {
  expect(taxOrder([10000], 995, rate("US", "TX", 6.25))).toEqual({
    lines: [625],
    shipping: 62, // 62.1875
    total: 687,
  });
  expect(taxOrder([10000], 995, rate("US", "CA", 7.25, false))).toEqual({
    lines: [725],
    shipping: 0,
    total: 725,
  });
});

test("percentages convert to thousandths of a percent and back without drift", () => {
  for (const p of [0, 4, 6.25, 7.25, 8.875, 19, 21.5, 100]) {
    expect(percentFromMilli(milliFromPercent(p))).toBe(p);
  }
  expect(milliFromPercent(8.875)).toBe(8875);
});
