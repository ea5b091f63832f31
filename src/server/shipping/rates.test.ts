import { expect, test } from "vitest";
import {
  cheapest,
  methodPrice,
  shippingOptions,
  zoneFor,
  type ShippingMethodRule,
  type ShippingZoneRule,
} from "./rates";

const flat = (id: string, cents: number): ShippingMethodRule => ({
  id,
  name: id,
  estimate: "",
  kind: "flat",
  priceCents: cents,
  freeOverCents: null,
  bands: [],
});
const freeOver = (id: string, cents: number, over: number): ShippingMethodRule => ({
  ...flat(id, cents),
  kind: "free_over",
  freeOverCents: over,
});
const weight = (id: string, bands: [number, number][]): ShippingMethodRule => ({
  ...flat(id, 0),
  kind: "weight",
  bands: bands.map(([upToGrams, priceCents]) => ({ upToGrams, priceCents })),
});
const zone = (
  id: string,
  countries: string[],
  regions: string[],
  methods: ShippingMethodRule[],
): ShippingZoneRule => ({ id, name: id, countries, regions, methods });

const us = zone("us", ["US"], [], [flat("ground", 995)]);
const hawaii = zone("islands", ["US"], ["HI", "AK"], [flat("air", 4500)]);
const eu = zone("eu", ["DE", "FR", "NL"], [], [flat("eu", 1495)]);
const basket = { subtotalCents: 10_000, weightGrams: 1_000 };

test("the zone naming the region beats the one naming only the country, in any order", () => {
  expect(zoneFor([us, hawaii, eu], { country: "US", region: "HI" })?.id).toBe("islands");
  expect(zoneFor([hawaii, us, eu], { country: "US", region: "hi" })?.id).toBe("islands");
  expect(zoneFor([us, hawaii, eu], { country: "US", region: "TX" })?.id).toBe("us");
  expect(zoneFor([us, hawaii, eu], { country: "US", region: null })?.id).toBe("us");
  expect(zoneFor([us, hawaii, eu], { country: "NL", region: null })?.id).toBe("eu");
});

test("between two zones of the same country, the older (first listed) serves", () => {
  const other = zone("us-2", ["US"], [], [flat("other", 1)]);
  expect(zoneFor([us, other], { country: "US", region: "TX" })?.id).toBe("us");
});

test("a place no zone covers is refused with its name", () => {
  expect(shippingOptions([us, eu], { country: "GB", region: null }, basket)).toEqual({
    ok: false,
    problem: "We do not ship to United Kingdom",
  });
  expect(shippingOptions([hawaii], { country: "US", region: "TX" }, basket)).toEqual({
    ok: false,
    problem: "We do not ship to TX, United States",
  });
});

test("a zone without methods serves nobody", () => {
  const empty = zone("empty", ["FR"], [], []);
  expect(shippingOptions([empty], { country: "FR", region: null }, basket).ok).toBe(false);
});

test("flat rates cost the same whatever the order", () => {
  expect(methodPrice(flat("f", 995), { subtotalCents: 1, weightGrams: 100_000 })).toBe(995);
});

test("free over a value: charged below it, free from it (the lines' net value)", () => {
  const m = freeOver("std", 995, 25_000);
  expect(methodPrice(m, { subtotalCents: 24_999, weightGrams: 0 })).toBe(995);
  expect(methodPrice(m, { subtotalCents: 25_000, weightGrams: 0 })).toBe(0);
});

test("weight bands: the first band at least as heavy as the order; heavier than all: not served", () => {
  const m = weight("w", [
    [2_000, 1_000],
    [10_000, 2_000],
  ]);
  expect(methodPrice(m, { subtotalCents: 0, weightGrams: 0 })).toBe(1_000);
  expect(methodPrice(m, { subtotalCents: 0, weightGrams: 2_000 })).toBe(1_000);
  expect(methodPrice(m, { subtotalCents: 0, weightGrams: 2_001 })).toBe(2_000);
  expect(methodPrice(m, { subtotalCents: 0, weightGrams: 10_001 })).toBeNull();
});

test("a method that cannot carry the order is left out; when none can, the weight is said", () => {
  const light = weight("light", [[5_000, 700]]);
  const z = zone("z", ["US"], [], [light, flat("freight", 9_900)]);
  const heavy = { subtotalCents: 0, weightGrams: 12_345 };
  const answer = shippingOptions([z], { country: "US", region: null }, heavy);
  expect(answer.ok && answer.options.map((o) => o.method.id)).toEqual(["freight"]);
  const only = zone("only", ["US"], [], [light]);
  expect(shippingOptions([only], { country: "US", region: null }, heavy)).toEqual({
    ok: false,
    problem:
      "No shipping method takes an order this heavy (12.3 kg): split it into smaller orders or contact us",
  });
});

test("the cheapest option is the first of equals", () => {
  const options = [
    { method: flat("a", 500), priceCents: 500 },
    { method: flat("b", 300), priceCents: 300 },
    { method: flat("c", 300), priceCents: 300 },
  ];
  expect(cheapest(options)?.method.id).toBe("b");
  expect(cheapest([])).toBeNull();
});
