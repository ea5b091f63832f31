import { expect, test } from "vitest";
import type { ProductDetail } from "#contract/products";
import { changesOf } from "./edit-product-form";

const product: ProductDetail = {
  _id: "p1",
  name: "Brake pad set",
  partNumber: "PW-BP-1001",
  category: "Brakes",
  crossReferences: [{ kind: "OE", brand: "Toyota", number: "04465-02220" }],
  img: "/images/products/brake-pads.svg",
  price: 39.9,
  minimumOrder: 2,
  availableQuantity: 330,
  shortDescription: "Front axle",
  warranty: 24,
  coreDeposit: null,
  createdAt: "2026-11-22T10:00:00.000Z",
  breaks: [],
  weightGrams: 850,
};
const unchanged = {
  partNumber: product.partNumber,
  category: product.category,
  crossReferences: [{ kind: "OE" as const, brand: "Toyota", number: "04465-02220" }],
  price: product.price,
  availableQuantity: product.availableQuantity,
  minimumOrder: product.minimumOrder,
  warranty: product.warranty,
  shortDescription: product.shortDescription,
  img: product.img,
};

test("an edit sends only the fields that changed", () => {
  expect(changesOf(product, unchanged)).toEqual({});
  expect(changesOf(product, { ...unchanged, price: 42, warranty: 36 })).toEqual({
    price: 42,
    warranty: 36,
  });
});

test("a new stock goes with the stock the form was opened with", () => {
  expect(changesOf(product, { ...unchanged, availableQuantity: 380 })).toEqual({
    availableQuantity: 380,
    availableQuantityWas: 330,
  });
});

test("part number, category and cross-references are sent when changed, the list whole", () => {
  expect(changesOf(product, { ...unchanged, partNumber: "PW-BP-1002", category: "Other" })).toEqual(
    {
      partNumber: "PW-BP-1002",
      category: "Other",
    },
  );
  const more = [
    ...unchanged.crossReferences,
    { kind: "competitor" as const, brand: "Brembo", number: "P 83 024" },
  ];
  expect(changesOf(product, { ...unchanged, crossReferences: more })).toEqual({
    crossReferences: more,
  });
  expect(changesOf(product, { ...unchanged, crossReferences: [] })).toEqual({
    crossReferences: [],
  });
});

test("a changed shipping weight is sent; the weight it was opened with is not", () => {
  expect(changesOf(product, { ...unchanged, weightGrams: 850 })).toEqual({});
  expect(changesOf(product, { ...unchanged, weightGrams: 1200 })).toEqual({ weightGrams: 1200 });
});
