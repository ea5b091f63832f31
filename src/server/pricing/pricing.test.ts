import { expect, test } from "vitest";
import { priceLines, priceTiers, type OverlayEntry } from "./pricing";

test("a line costs its unit price times its quantity, in whole minor units", () => {
  const priced = priceLines({ currency: "USD" }, [
    { productId: "a", qty: 3, listPriceCents: 1999 },
    { productId: "b", qty: 0, listPriceCents: 500 },
  ]);
  expect(priced).toEqual([
    { productId: "a", qty: 3, listPriceCents: 1999, unitPriceCents: 1999, lineTotalCents: 5997 },
    { productId: "b", qty: 0, listPriceCents: 500, unitPriceCents: 500, lineTotalCents: 0 },
  ]);
});

test("a customer without a company pays the list price", () => {
  const [line] = priceLines({ currency: "USD", customerId: "u1" }, [
    { productId: "a", qty: 2, listPriceCents: 1234 },
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
  const at = (qty: number) => priceLines(ctx, [{ productId: "a", qty, listPriceCents: 1500 }])[0]!;
  expect(at(1)).toMatchObject({ unitPriceCents: 1200, lineTotalCents: 1200 });
  expect(at(9)).toMatchObject({ unitPriceCents: 1200, lineTotalCents: 10800 });
  expect(at(10)).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 11000 });
  expect(at(49)).toMatchObject({ unitPriceCents: 1100, lineTotalCents: 53900 });
  expect(at(50)).toMatchObject({ unitPriceCents: 980, lineTotalCents: 49000 });
});

test("the list price wins when it is lower than the company's price or break", () => {
  const ctx = company({ a: kit });
  expect(
    priceLines(ctx, [{ productId: "a", qty: 60, listPriceCents: 950 }])[0]!.unitPriceCents,
  ).toBe(950);
  expect(
    priceLines(ctx, [{ productId: "a", qty: 12, listPriceCents: 1150 }])[0]!.unitPriceCents,
  ).toBe(1100);
});

test("products the company's list does not name are at the list price", () => {
  const ctx = company({ a: kit });
  const [line] = priceLines(ctx, [{ productId: "b", qty: 100, listPriceCents: 700 }]);
  expect(line).toMatchObject({ unitPriceCents: 700, lineTotalCents: 70000 });
});

test("breaks apply whatever order they are stored in", () => {
  const ctx = company({
    a: { unitPriceCents: 1200, breaks: [...kit.breaks].reverse() },
  });
  expect(
    priceLines(ctx, [{ productId: "a", qty: 75, listPriceCents: 1500 }])[0]!.unitPriceCents,
  ).toBe(980);
});

test("amounts stay whole numbers of cents", () => {
  const ctx = company({ a: { unitPriceCents: 333, breaks: [{ minQty: 3, unitPriceCents: 199 }] } });
  const [line] = priceLines(ctx, [{ productId: "a", qty: 7, listPriceCents: 1001 }]);
  expect(Number.isInteger(line!.lineTotalCents)).toBe(true);
  expect(line!.lineTotalCents).toBe(1393);
});

test("the product page's table starts at the minimum order and lists each break that lowers the price", () => {
  const ctx = company({ a: kit });
  expect(priceTiers(ctx, { id: "a", listPriceCents: 1500, minimumOrder: 1 })).toEqual([
    { minQty: 1, unitPriceCents: 1200 },
    { minQty: 10, unitPriceCents: 1100 },
    { minQty: 50, unitPriceCents: 980 },
  ]);
  // A minimum order of 20 already reaches the first break; a list price of 1000 beats it.
  expect(priceTiers(ctx, { id: "a", listPriceCents: 1000, minimumOrder: 20 })).toEqual([
    { minQty: 20, unitPriceCents: 1000 },
    { minQty: 50, unitPriceCents: 980 },
  ]);
  expect(
    priceTiers({ currency: "USD" }, { id: "a", listPriceCents: 1500, minimumOrder: 2 }),
  ).toEqual([{ minQty: 2, unitPriceCents: 1500 }]);
});
