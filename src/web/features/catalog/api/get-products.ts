import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import {
  MAX_OFFSET,
  productCategories,
  type ProductCategory,
  NEWEST_PRODUCTS_COUNT,
  PRODUCTS_PAGE_SIZE,
  productSorts,
  type ProductSort,
} from "#contract/constants";
import type { ProductListItem, ProductListQuery, ProductSuggestions } from "#contract/products";
import { apiGet, apiGetPage, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { vehicleFromParams } from "../../../lib/vehicle-choice";
import {
  attributeFilterParam,
  MAX_ATTRIBUTE_FILTERS,
  splitAttributeFilter,
} from "#contract/facet-params";

export type ProductsQuery = Partial<ProductListQuery>;

/** The landing page's three newest products. */
export const NEWEST_PRODUCTS_QUERY: ProductsQuery = {
  limit: NEWEST_PRODUCTS_COUNT,
  sort: "newest",
};

export const getProducts = (query: ProductsQuery) =>
  apiGetPage<ProductListItem>(`/products${toQueryString(query)}`);

export const productsQueryOptions = (query: ProductsQuery) =>
  queryOptions({
    queryKey: queryKeys.products.list(query),
    queryFn: () => getProducts(query),
    placeholderData: keepPreviousData,
  });

export function useProducts(query: ProductsQuery) {
  return useQuery(productsQueryOptions(query));
}

const MAX_PAGE = Math.floor(MAX_OFFSET / PRODUCTS_PAGE_SIZE) + 1;

const isSort = (s: string | null): s is ProductSort => productSorts.includes(s as ProductSort);

const isCategory = (s: string | null): s is ProductCategory =>
  productCategories.includes(s as ProductCategory);

/** A price typed into the URL: a number of 0 or more, else no bound. */
function priceParam(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 && n <= 1_000_000 ? n : undefined;
}

/**
 * The URL's attribute filters (`attr`, facets): only within a category (attributes are a
 * category's), each well-formed one once, at most MAX_ATTRIBUTE_FILTERS.
 */
function attrParams(params: URLSearchParams, category: ProductCategory | undefined): string[] {
  if (!category) return [];
  const kept = new Set<string>();
  for (const p of params.getAll("attr")) {
    const f = splitAttributeFilter(p);
    if (f) kept.add(attributeFilterParam(f.attributeId, f.value));
  }
  return [...kept].slice(0, MAX_ATTRIBUTE_FILTERS);
}

/**
 * The All products page's state, kept in its URL: search, filters (category, price range, in
 * stock, attribute values), sort and page, and the list query.
 */
export function productBrowserState(params: URLSearchParams) {
  const q = params.get("q") ?? "";
  const categoryParam = params.get("category");
  const category = isCategory(categoryParam) ? categoryParam : undefined;
  const minPrice = priceParam(params.get("minPrice"));
  const maxPrice = priceParam(params.get("maxPrice"));
  const inStock = params.get("inStock") === "true";
  const sortParam = params.get("sort");
  const sort: ProductSort = isSort(sortParam) ? sortParam : "newest";
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1));
  // Only parts that fit this vehicle (year, make, model, perhaps engine), when the URL names one.
  const vehicle = vehicleFromParams(params);
  const attr = attrParams(params, category);
  const query: ProductsQuery = {
    limit: PRODUCTS_PAGE_SIZE,
    offset: (page - 1) * PRODUCTS_PAGE_SIZE,
    sort,
    q: q || undefined,
    category,
    minPrice,
    maxPrice,
    inStock: inStock ? "true" : undefined,
    ...vehicle,
    // Sorted: the same filters ticked in another order are the same query (and cache entry).
    attr: attr.length > 0 ? [...attr].sort() : undefined,
  };
  return {
    q,
    category,
    minPrice,
    maxPrice,
    inStock,
    sort,
    page,
    maxPage: MAX_PAGE,
    vehicle,
    attr,
    query,
  };
}

/** What an empty search offers ("Did you mean …"); asked only when a search found nothing. */
export function useProductSuggestions(q: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.products.all, "suggestions", q] as const,
    queryFn: () => apiGet<ProductSuggestions>(`/products/suggestions${toQueryString({ q })}`),
    enabled: enabled && q.length > 0,
    staleTime: 60_000,
  });
}
