import { expect, test } from "vitest";
import { newAddressCountry, STORE_DEFAULT_COUNTRY, type ShoppingMarket } from "./address-country";

const europe: ShoppingMarket = { kind: "market", countries: ["DE", "FR", "AT"] };
const uk: ShoppingMarket = { kind: "market", countries: ["GB"] };
const northAmerica: ShoppingMarket = { kind: "market", countries: ["CA", "US", "MX"] };

test("the buyer's default address's country comes first, whatever the market", () => {
  for (const market of [europe, uk, { kind: "off" }, { kind: "pending" }] as ShoppingMarket[]) {
    expect(newAddressCountry({ defaultAddressCountry: "NL", market })).toBe("NL");
  }
});

test("without one: a market of one country is that country", () => {
  expect(newAddressCountry({ market: uk })).toBe("GB");
  expect(newAddressCountry({ defaultAddressCountry: null, market: uk })).toBe("GB");
});

test("a market of several: the store's default country when it is among them, else none", () => {
  expect(newAddressCountry({ market: northAmerica })).toBe("US");
  expect(newAddressCountry({ market: europe })).toBe("");
  expect(newAddressCountry({ market: { ...europe, storeCountry: "AT" } })).toBe("AT");
});

test("markets off: the store's own country (the site config's STORE_COUNTRY), else the United States", () => {
  expect(STORE_DEFAULT_COUNTRY).toBe("US");
  expect(newAddressCountry({ market: { kind: "off" } })).toBe("US");
  expect(newAddressCountry({ market: { kind: "off", storeCountry: "DE" } })).toBe("DE");
});

test("while the market loads, no country yet", () => {
  expect(newAddressCountry({ market: { kind: "pending" } })).toBeUndefined();
});
