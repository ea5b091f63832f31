import { expect, test } from "vitest";
import { planReorder, type OldLine } from "./service";

const money = (c: number) => `$${(c / 100).toFixed(2)}`;
type Product = NonNullable<OldLine["product"]>;
const line = (
  over: Partial<Omit<OldLine, "product">> & { product?: Partial<Product> | null } = {},
): OldLine => {
  const id = over.productId ?? "p1";
  const { product, ...rest } = over;
  return {
    productId: id,
    productName: "Disc",
    qty: 4,
    unitPriceCents: 1000,
    ...rest,
    product:
      product === null
        ? null
        : {
            id: id ?? "gone",
            name: "Disc",
            priceCents: 1000,
            minimumOrder: 1,
            availableQuantity: 100,
            ...product,
          },
  };
};
const list = (cents: number) => () => cents;

test("an order as it was goes back whole, nothing said", () => {
  expect(planReorder([line()], list(1000), money)).toEqual({
    add: [{ productId: "p1", qty: 4, seenPriceCents: 1000 }],
    changes: [],
  });
});

test("a price that changed is said, and the new one is what the cart shows", () => {
  const plan = planReorder([line()], list(1200), money);
  expect(plan.add[0]!.seenPriceCents).toBe(1200);
  expect(plan.changes).toEqual([
    {
      productId: "p1",
      productName: "Disc",
      kind: "price",
      message: "Disc now costs $12.00 (was $10.00)",
    },
  ]);
});

test("a deleted part, a part out of stock, one whose minimum is above the stock: left out", () => {
  const plan = planReorder(
    [
      line({ productId: null, productName: "Old part", product: null }),
      line({ productId: "p2", product: { availableQuantity: 0 } }),
      line({ productId: "p3", product: { minimumOrder: 10, availableQuantity: 5 } }),
    ],
    list(1000),
    money,
  );
  expect(plan.add).toEqual([]);
  expect(plan.changes.map((c) => [c.kind, c.message])).toEqual([
    ["unavailable", "Old part is no longer sold"],
    ["unavailable", "Disc is out of stock"],
    ["unavailable", "Disc is out of stock"],
  ]);
});

test("more than the stock is capped; less than today's minimum is raised", () => {
  const plan = planReorder(
    [
      line({ productId: "p1", qty: 50, product: { availableQuantity: 20 } }),
      line({ productId: "p2", qty: 2, product: { minimumOrder: 5 } }),
    ],
    list(1000),
    money,
  );
  expect(plan.add.map((a) => [a.productId, a.qty])).toEqual([
    ["p1", 20],
    ["p2", 5],
  ]);
  expect(plan.changes.map((c) => c.message)).toEqual([
    "Disc: only 20 in stock, so 20 instead of 50",
    "Disc: at least 5 per order, so 5 instead of 2",
  ]);
});

test("a trade buyer's line is raised to a whole pack, above the minimum too, and capped to whole packs", () => {
  const plan = planReorder(
    [
      line({ productId: "p1", qty: 15, product: { minimumOrder: 10, packSize: 10 } }),
      line({ productId: "p2", qty: 3, product: { minimumOrder: 10, packSize: 10 } }),
      line({ productId: "p3", qty: 7, product: { minimumOrder: 4, packSize: 4 } }),
      line({ productId: "p4", qty: 40, product: { packSize: 10, availableQuantity: 25 } }),
      line({ productId: "p5", qty: 20, product: { minimumOrder: 10, packSize: 10 } }),
      line({ productId: "p6", qty: 5, product: { packSize: 10, availableQuantity: 9 } }),
    ],
    list(1000),
    money,
  );
  expect(plan.add.map((a) => [a.productId, a.qty])).toEqual([
    ["p1", 20],
    ["p2", 10],
    ["p3", 8],
    ["p4", 20],
    ["p5", 20],
  ]);
  expect(plan.changes.map((c) => [c.productId, c.kind, c.message])).toEqual([
    ["p1", "raised", "Disc: sold in packs of 10, so 20 instead of 15"],
    ["p2", "raised", "Disc: at least 10 per order, so 10 instead of 3"],
    ["p3", "raised", "Disc: sold in packs of 4, so 8 instead of 7"],
    ["p4", "capped", "Disc: only 25 in stock, in packs of 10, so 20 instead of 40"],
    ["p6", "unavailable", "Disc is out of stock"],
  ]);
});
