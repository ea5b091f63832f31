import type { ProductDetail, ProductListItem } from "#contract/products";

/**
 * A product as the API lists it (a brake pad set, in stock, no backorders),
 * for web tests; `changes` override.
 */
export const aProduct = (changes: Partial<ProductListItem> = {}): ProductListItem => ({
  _id: "11111111-1111-4111-8111-111111111111",
  name: "Brake pad set",
  partNumber: "PW-BP-1001",
  category: "Brakes",
  img: "/images/products/brake-pads.svg",
  price: 40,
  minimumOrder: 2,
  retailMinimum: 1,
  packSize: 1,
  availableQuantity: 330,
  shortDescription: "Front axle",
  warranty: 24,
  coreDeposit: null,
  createdAt: "2026-11-22T10:00:00.000Z",
  backorder: null,
  ...changes,
});

/**
 * A product as its page and the edit form read it: `product` with no numbers it replaces, no
 * weight, dimensions, breaks or attributes, all of it on sale at the home location, but for
 * `changes`.
 */
export const aProductDetail = (
  product: ProductListItem,
  changes: Partial<ProductDetail> = {},
): ProductDetail => ({
  ...product,
  crossReferences: [],
  breaks: [],
  weightGrams: 0,
  lengthMm: null,
  widthMm: null,
  heightMm: null,
  attributes: [],
  stockByLocation: [
    { code: "MAIN", name: "Main warehouse", city: "", onSale: product.availableQuantity },
  ],
  ...changes,
});
