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

const postal = (region: string, postalCode: string, percent: number): TaxRateRule => ({
  ...rate("US", region, percent),
  id: `US-${region}-${postalCode}`,
  postalCode,
});

test("a postal code's own rate wins over its state's: Manhattan 10001 pays 8.875 %, not New York's 4 %", () => {
  const ny = [rate("US", "NY", 4), postal("NY", "10001", 8.875), rate("US", "", 1)];
  expect(rateFor(ny, { country: "US", region: "NY", postalCode: "10001" })?.rateMillipercent).toBe(
    8875,
  );
  // ZIP+4 is in its ZIP's rate; another ZIP of the state pays the state's.
  expect(rateFor(ny, { country: "US", region: "NY", postalCode: "10001-1234" })?.id).toBe(
    "US-NY-10001",
  );
  expect(rateFor(ny, { country: "US", region: "NY", postalCode: "12207" })?.id).toBe("US-NY");
  // Without a postal code (a visitor's estimate in a country without one): the state's.
  expect(rateFor(ny, { country: "US", region: "NY" })?.id).toBe("US-NY");
});

test("exact beats a range, a narrower range a wider one, a range a prefix, a longer prefix a shorter", () => {
  const all = [
    postal("NY", "1*", 5),
    postal("NY", "100*", 6),
    postal("NY", "10000-10999", 7),
    postal("NY", "10001-10282", 8),
    postal("NY", "10001", 9),
    rate("US", "NY", 4),
  ];
  const at = (postalCode: string, list = all) =>
    rateFor(list, { country: "US", region: "NY", postalCode })?.id;
  for (const list of [all, [...all].reverse()]) {
    expect(at("10001", list)).toBe("US-NY-10001");
    expect(at("10002", list)).toBe("US-NY-10001-10282");
    expect(at("10500", list)).toBe("US-NY-10000-10999");
    expect(at("11000", list)).toBe("US-NY-1*");
    expect(at("20000", list)).toBe("US-NY");
  }
  expect(at("10099", [postal("NY", "1*", 5), postal("NY", "100*", 6)])).toBe("US-NY-100*");
});

test("a postal rate applies only in its country and region; letters and spaces as addresses write them", () => {
  const rates = [
    postal("NY", "10001", 8.875),
    rate("GB", "", 20),
    { ...rate("GB", "", 0), id: "GB-SW1A", postalCode: "SW1A*" },
  ];
  expect(rateFor(rates, { country: "US", region: "NJ", postalCode: "10001" })).toBeNull();
  expect(rateFor(rates, { country: "GB", region: null, postalCode: "sw1a 1aa" })?.id).toBe(
    "GB-SW1A",
  );
  expect(rateFor(rates, { country: "GB", region: null, postalCode: "EC1A 1BB" })?.id).toBe("GB-");
});
