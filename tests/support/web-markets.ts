import type { Market } from "#contract/markets";

/**
 * Two markets as the API lists them, for web tests: the United States (the default, in
 * dollars, prices before tax) and Europe (Germany and France, in euros at 0.92, prices with
 * tax); spread one with changes for another.
 */
export const usMarket: Market = {
  id: "00000000-0000-4000-8000-0000000000a1",
  code: "US",
  name: "United States",
  currency: "USD",
  countries: ["US"],
  pricesIncludeTax: false,
  rate: 1,
  rounding: "cent",
  active: true,
  isDefault: true,
  example: { storePrice: 19.99, price: 19.99 },
};

export const europeMarket: Market = {
  ...usMarket,
  id: "00000000-0000-4000-8000-0000000000a2",
  code: "EU",
  name: "Europe",
  currency: "EUR",
  countries: ["DE", "FR"],
  pricesIncludeTax: true,
  rate: 0.92,
  isDefault: false,
  example: { storePrice: 19.99, price: 18.39 },
};
