import { expect, test } from "vitest";
import { priceLines } from "./pricing";

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
