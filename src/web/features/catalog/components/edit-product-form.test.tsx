import { expect, test } from "vitest";
import type { Product } from "#contract/products";
import { changesOf } from "./edit-product-form";

const product: Product = {
  _id: "p1",
  name: "Brake pad set",
  img: "/images/products/brake-pads.svg",
  price: 39.9,
  minimumOrder: 2,
  availableQuantity: 330,
  shortDescription: "Front axle",
  warranty: 24,
  createdAt: "2026-11-22T10:00:00.000Z",
};
const unchanged = {
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
