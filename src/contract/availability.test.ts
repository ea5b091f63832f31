import { expect, test } from "vitest";
import { availabilityWords, type LocationOnSale, type ProductBackorder } from "./availability";

const chicago: LocationOnSale = {
  code: "CHI",
  name: "Chicago warehouse",
  city: "Chicago",
  onSale: 12,
};
const main: LocationOnSale = { code: "MAIN", name: "Main warehouse", city: "", onSale: 8 };
const fromSupply: ProductBackorder = { available: true, expectedOn: "2027-01-12", more: 30 };
const fromLeadTime: ProductBackorder = { available: true, expectedOn: "2027-01-19", more: null };
const noDate: ProductBackorder = { available: false, expectedOn: null, more: null };

test("a trade buyer reads where the stock ships from today and how many more come when", () => {
  expect(
    availabilityWords({ availableQuantity: 12, stockByLocation: [chicago], backorder: fromSupply }),
  ).toBe("12 ship today from Chicago warehouse · 30 more on 12 Jan 2027");
  expect(
    availabilityWords({
      availableQuantity: 20,
      stockByLocation: [chicago, main],
      backorder: null,
    }),
  ).toBe("12 ship today from Chicago warehouse, 8 from Main warehouse");
});

test("counts of a thousand or more are written with their separators, as the stock hint is", () => {
  expect(
    availabilityWords({
      availableQuantity: 3400,
      stockByLocation: [
        { ...chicago, onSale: 2200 },
        { ...main, onSale: 1200 },
      ],
      backorder: { ...fromSupply, more: 12_000 },
    }),
  ).toBe(
    "2,200 ship today from Chicago warehouse, 1,200 from Main warehouse · 12,000 more on 12 Jan 2027",
  );
  expect(availabilityWords({ availableQuantity: 1500, stockByLocation: [], backorder: null })).toBe(
    "1,500 in stock",
  );
});

test("a lead time promises a date for any number of units", () => {
  expect(
    availabilityWords({
      availableQuantity: 12,
      stockByLocation: [chicago],
      backorder: fromLeadTime,
    }),
  ).toBe("12 ship today from Chicago warehouse · more on backorder, expected 19 Jan 2027");
});

test("nothing on sale: on backorder with its date, or plainly out of stock", () => {
  const none = { availableQuantity: 0, stockByLocation: [] };
  expect(availabilityWords({ ...none, backorder: fromSupply })).toBe(
    "Out of stock · on backorder, expected 12 Jan 2027",
  );
  expect(availabilityWords({ ...none, backorder: null })).toBe("Out of stock");
  // Takes backorders, but nothing coming covers another unit and there is no lead time.
  expect(availabilityWords({ ...none, backorder: noDate })).toBe("Out of stock");
});

test("a visitor reads in stock or on backorder with its date, never counts or places", () => {
  expect(availabilityWords({ inStock: true, backorder: fromSupply })).toBe("In stock");
  expect(availabilityWords({ inStock: true, backorder: null })).toBe("In stock");
  expect(availabilityWords({ inStock: false, backorder: fromSupply })).toBe(
    "Out of stock · on backorder, expected 12 Jan 2027",
  );
  expect(availabilityWords({ inStock: false, backorder: noDate })).toBe("Out of stock");
});

test("stock without a known location still says how many", () => {
  expect(availabilityWords({ availableQuantity: 5, stockByLocation: [], backorder: null })).toBe(
    "5 in stock",
  );
});
