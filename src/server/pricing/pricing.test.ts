import { expect, test } from "vitest";
import { priceLines, priceTiers, type OverlayEntry } from "./pricing";

test("a line costs its unit price times its quantity, in whole minor units", () => {
  const priced = priceLines({ currency: "USD" }, [
    { productId: "a", qty: 3, listPriceCents: 1999, publicBreaks: [] },
    { productId: "b", qty: 0, listPriceCents: 500, publicBreaks: [] },
  ]);
  expect(priced).toEqual([
    {
      productId: "a",
      qty: 3,
      listPriceCents: 1999,
      publicBreaks: [],
      unitPriceCents: 1999,
      lineTotalCents: 5997,
      note: null,
    },
    {
      productId: "b",
      qty: 0,
      listPriceCents: 500,
      publicBreaks: [],
      unitPriceCents: 500,
      lineTotalCents: 0,
      note: null,
    },
  ]);
});

test("a customer without a company pays the list price", () => {
  const [line] = priceLines({ currency: "USD", customerId: "u1" }, [
    { productId: "a", qty: 2, listPriceCents: 1234, publicBreaks: [] },
  ]);
  expect(line!.unitPriceCents).toBe(1234);
});

const company = (entries: Record<string, OverlayEntry>) => ({
  currency: "USD",
  customerId: "buyer",
  companyId: "c1",
  overlay: new Map(Object.entries(entries)),
});
const kit: OverlayEntry = {
  unitPriceCents: 1200,
  breaks: [
    { minQty: 10, unitPriceCents: 1100 },
    { minQty: 50, unitPriceCents: 980 },
  ],
};

test("a company buyer pays the company's unit price, then the break their quantity reaches", () => {
  const ctx = company({ a: kit });
  const at = (qty: number) =>
    priceLines(ctx, [{ productId: "a", qty, listPriceCents: 1500, publicBreaks: [] }])[0]!;
  expect(at(1)).toMatchObject({ unitPriceCents: 1200, lineTotalCents: 1200 });
  expect(at(9)).toMatchObject({ unitPriceCents: 1200, lineTotalCents: 10800 });
  expect(at(10)).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 11000 });
  expect(at(49)).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 53900 });
  expect(at(50)).toMatchObject({ unitPriceCents: 980, lineTotalCents: 49000 });
});

test("the list price wins when it is lower than the company's price or break", () => {
  const ctx = company({ a: kit });
  expect(
    priceLines(ctx, [{ productId: "a", qty: 60, listPriceCents: 950, publicBreaks: [] }])[0]!
      .unitPriceCents,
  ).toBe(950);
  expect(
    priceLines(ctx, [{ productId: "a", qty: 12, listPriceCents: 1150, publicBreaks: [] }])[0]!
      .unitPriceCents,
  ).toBe(1100);
});

test("products the company's list does not name are at the list price", () => {
  const ctx = company({ a: kit });
  const [line] = priceLines(ctx, [
    { productId: "b", qty: 100, listPriceCents: 700, publicBreaks: [] },
  ]);
  expect(line).toMatchObject({ unitPriceCents: 700, lineTotalCents: 70000 });
});

test("breaks apply whatever order they are stored in", () => {
  const ctx = company({
    a: { unitPriceCents: 1200, breaks: [...kit.breaks].reverse() },
  });
  expect(
    priceLines(ctx, [{ productId: "a", qty: 75, listPriceCents: 1500, publicBreaks: [] }])[0]!
      .unitPriceCents,
  ).toBe(980);
});

test("amounts stay whole numbers of cents", () => {
  const ctx = company({ a: { unitPriceCents: 333, breaks: [{ minQty: 3, unitPriceCents: 199 }] } });
  const [line] = priceLines(ctx, [
    { productId: "a", qty: 7, listPriceCents: 1001, publicBreaks: [] },
  ]);
  expect(Number.isInteger(line!.lineTotalCents)).toBe(true);
  expect(line!.lineTotalCents).toBe(1393);
});

test("the product page's table starts at the minimum order and lists each break that lowers the price", () => {
  const ctx = company({ a: kit });
  expect(
    priceTiers(ctx, { id: "a", listPriceCents: 1500, minimumOrder: 1, publicBreaks: [] }),
  ).toEqual([
    { minQty: 1, unitPriceCents: 1200 },
    { minQty: 10, unitPriceCents: 1100 },
    { minQty: 50, unitPriceCents: 980 },
  ]);
  // A minimum order of 20 already reaches the first break; a list price of 1000 beats it.
  expect(
    priceTiers(ctx, { id: "a", listPriceCents: 1000, minimumOrder: 20, publicBreaks: [] }),
  ).toEqual([
    { minQty: 20, unitPriceCents: 1000 },
    { minQty: 50, unitPriceCents: 980 },
  ]);
  expect(
    priceTiers(
      { currency: "USD" },
      { id: "a", listPriceCents: 1500, minimumOrder: 2, publicBreaks: [] },
    ),
  ).toEqual([{ minQty: 2, unitPriceCents: 1500 }]);
});

// Public (store-wide) quantity breaks: docs/pricing.md.
const publicBreaks = [
  { minQty: 10, unitPriceCents: 1100 },
  { minQty: 50, unitPriceCents: 980 },
];

test("everyone, a visitor included, pays the public break their quantity reaches", () => {
  const at = (qty: number) =>
    priceLines({ currency: "USD" }, [
      { productId: "a", qty, listPriceCents: 1250, publicBreaks },
    ])[0]!;
  expect(at(1)).toMatchObject({ unitPriceCents: 1250, lineTotalCents: 1250 });
  expect(at(9)).toMatchObject({ unitPriceCents: 1250, lineTotalCents: 11250 });
  expect(at(10)).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 11000 });
  expect(at(49)).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 53900 });
  expect(at(50)).toMatchObject({ unitPriceCents: 980, lineTotalCents: 49000 });
  // A customer without a company is priced the same way.
  expect(
    priceLines({ currency: "USD", customerId: "u1" }, [
      { productId: "a", qty: 12, listPriceCents: 1250, publicBreaks },
    ])[0],
  ).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 13200 });
});

test("public break, company price, company break and list price: the lowest wins", () => {
  // The company's unit price 1150 beats the list price 1250 below 10 units; from 10 on the
  // public break 1100 beats it; the company's break at 20 (1050) beats the public 1100; from
  // 50 on the public 980 beats the company's 1050.
  const ctx = company({
    a: { unitPriceCents: 1150, breaks: [{ minQty: 20, unitPriceCents: 1050 }] },
  });
  const at = (qty: number) =>
    priceLines(ctx, [{ productId: "a", qty, listPriceCents: 1250, publicBreaks }])[0]!;
  expect(at(5)).toMatchObject({ unitPriceCents: 1150, lineTotalCents: 5750 });
  expect(at(10)).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 11000 });
  expect(at(20)).toMatchObject({ unitPriceCents: 1050, lineTotalCents: 21000 });
  expect(at(50)).toMatchObject({ unitPriceCents: 980, lineTotalCents: 49000 });
  // A product the company's list does not name: the public breaks alone.
  expect(
    priceLines(ctx, [{ productId: "b", qty: 10, listPriceCents: 1250, publicBreaks }])[0],
  ).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 11000 });
  // A company price below every public break wins at every quantity.
  const cheap = company({ a: { unitPriceCents: 900, breaks: [] } });
  expect(
    priceLines(cheap, [{ productId: "a", qty: 60, listPriceCents: 1250, publicBreaks }])[0],
  ).toMatchObject({ unitPriceCents: 900, lineTotalCents: 54000 });
});

test("the product page's table merges the public and the company's breaks", () => {
  const ctx = company({
    a: { unitPriceCents: 1150, breaks: [{ minQty: 20, unitPriceCents: 1050 }] },
  });
  expect(priceTiers(ctx, { id: "a", listPriceCents: 1250, minimumOrder: 1, publicBreaks })).toEqual(
    [
      { minQty: 1, unitPriceCents: 1150 },
      { minQty: 10, unitPriceCents: 1100 },
      { minQty: 20, unitPriceCents: 1050 },
      { minQty: 50, unitPriceCents: 980 },
    ],
  );
  expect(
    priceTiers(
      { currency: "USD" },
      { id: "a", listPriceCents: 1250, minimumOrder: 1, publicBreaks },
    ),
  ).toEqual([
    { minQty: 1, unitPriceCents: 1250 },
    { minQty: 10, unitPriceCents: 1100 },
    { minQty: 50, unitPriceCents: 980 },
  ]);
});
