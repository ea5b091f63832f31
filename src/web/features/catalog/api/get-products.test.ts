import { expect, test } from "vitest";
import { MAX_OFFSET, PRODUCTS_PAGE_SIZE } from "#contract/constants";
import { productBrowserState } from "./get-products";

const state = (query: string) => productBrowserState(new URLSearchParams(query));

test("no parameters: the first page of the newest products", () => {
  expect(state("")).toMatchObject({
    q: "",
    sort: "newest",
    page: 1,
    query: { limit: PRODUCTS_PAGE_SIZE, offset: 0, sort: "newest", q: undefined },
  });
});

test("search, sort and page come from the URL", () => {
  expect(state("q=brake&sort=price_asc&page=3")).toMatchObject({
    q: "brake",
    sort: "price_asc",
    page: 3,
    query: { offset: 2 * PRODUCTS_PAGE_SIZE, sort: "price_asc", q: "brake" },
  });
});

test("a sort or page that makes no sense falls back instead of failing", () => {
  expect(state("sort=cheapest&page=-4")).toMatchObject({ sort: "newest", page: 1 });
  expect(state("page=abc").page).toBe(1);
  const deepest = state("page=999999");
  expect(deepest.page).toBe(deepest.maxPage);
  expect(deepest.query.offset).toBeLessThanOrEqual(MAX_OFFSET);
});

test("category, price range and in stock come from the URL; nonsense is dropped", () => {
  expect(state("category=Brakes&minPrice=10&maxPrice=99.5&inStock=true")).toMatchObject({
    category: "Brakes",
    minPrice: 10,
    maxPrice: 99.5,
    inStock: true,
    query: { category: "Brakes", minPrice: 10, maxPrice: 99.5, inStock: "true" },
  });
  expect(state("category=Tyres&minPrice=-3&maxPrice=abc&inStock=yes")).toMatchObject({
    category: undefined,
    minPrice: undefined,
    maxPrice: undefined,
    inStock: false,
    query: { category: undefined, minPrice: undefined, maxPrice: undefined, inStock: undefined },
  });
});

test("the product list's query carries the URL's vehicle", () => {
  expect(state("year=2016&make=3&model=7&engine=9").query).toMatchObject({
    year: 2016,
    make: 3,
    model: 7,
    engine: 9,
  });
  expect(state("q=brake").query).not.toHaveProperty("year");
});

test("attribute filters come from the URL within a category, each once, sorted in the query", () => {
  const a = "11111111-1111-4111-8111-111111111111";
  const b = "22222222-2222-4222-8222-222222222222";
  const url = `category=Brakes&attr=${b}:Vented&attr=${a}:280&attr=${a}:280&attr=nonsense`;
  expect(state(url)).toMatchObject({
    attr: [`${b}:Vented`, `${a}:280`],
    query: { attr: [`${a}:280`, `${b}:Vented`] },
  });
  // Without a category there are no attribute filters (attributes are a category's).
  expect(state(`attr=${a}:280`)).toMatchObject({ attr: [], query: { attr: undefined } });
});
