import fc from "fast-check";
import { expect, test } from "vitest";
import type { Market } from "../../contract/markets";
import { chooseMarket, marketForDelivery, marketNamed } from "./market-choice";

const market = (code: string, countries: string[], over: Partial<Market> = {}): Market => ({
  id: `00000000-0000-4000-8000-0000000000${code.length}${countries.length}`,
  code,
  name: code,
  currency: "EUR",
  countries,
  pricesIncludeTax: true,
  rate: 0.92,
  rounding: "cent",
  active: true,
  isDefault: false,
  example: { storePrice: 19.99, price: 18.39 },
  ...over,
});
const us = market("US", ["US"], { currency: "USD", rate: 1, isDefault: true });
const eu = market("EU", ["DE", "FR", "IT"]);
const gb = market("GB", ["GB"], { currency: "GBP" });
const nordics = market("NORDIC", ["SE", "DK"], { active: false });
const all = [us, eu, gb, nordics];

test("?market= first (a country or a market's code, any case), then the cookie, then the delivery country, then the default", () => {
  expect(chooseMarket(all, { query: "de" })).toBe(eu);
  expect(chooseMarket(all, { query: "EU", cookie: "GB", deliveryCountry: "GB" })).toBe(eu);
  expect(chooseMarket(all, { cookie: "gb", deliveryCountry: "FR" })).toBe(gb);
  expect(chooseMarket(all, { deliveryCountry: "IT" })).toBe(eu);
  expect(chooseMarket(all, {})).toBe(us);
});

test("a choice naming no active market is passed over: an unknown code, a country in no market, an inactive market", () => {
  expect(chooseMarket(all, { query: "XX", cookie: "FR" })).toBe(eu);
  expect(chooseMarket(all, { query: "JP" })).toBe(us);
  expect(chooseMarket(all, { query: "SE" })).toBe(us);
  expect(chooseMarket(all, { query: "NORDIC", deliveryCountry: "GB" })).toBe(gb);
  expect(marketNamed(all, "  ")).toBeUndefined();
});

test("whatever the hints, the market chosen is active, and is the default unless a hint names it", () => {
  const hint = fc.option(fc.constantFrom("US", "EU", "GB", "DE", "de", "SE", "NORDIC", "XX", ""), {
    nil: undefined,
  });
  fc.assert(
    fc.property(hint, hint, hint, (query, cookie, deliveryCountry) => {
      const chosen = chooseMarket(all, { query, cookie, deliveryCountry });
      expect(chosen.active).toBe(true);
      const named = [query, cookie, deliveryCountry].some((h) => marketNamed(all, h) === chosen);
      expect(named || chosen.isDefault).toBe(true);
    }),
  );
});

test("at checkout the delivery country's market prices the order, and the buyer is told when it is not the cart's", () => {
  expect(marketForDelivery(all, us, "de")).toEqual({
    market: eu,
    notice: "Delivery to Germany is priced in EUR (EU): the totals below are in EUR",
  });
  expect(marketForDelivery(all, eu, "FR")).toEqual({ market: eu, notice: null });
  // A country in no active market is the default market's.
  expect(marketForDelivery(all, eu, "JP").market).toBe(us);
  expect(marketForDelivery(all, us, "SE")).toEqual({ market: us, notice: null });
});
