import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import {
  MAX_OFFSET,
  NEWEST_PRODUCTS_COUNT,
  PRODUCTS_PAGE_SIZE,
  productSorts,
  type ProductSort,
} from "#contract/constants";
import type { Product, ProductListQuery } from "#contract/products";
import { apiGetPage, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export type ProductsQuery = Partial<ProductListQuery>;

/** The landing page's three newest products. */
export const NEWEST_PRODUCTS_QUERY: ProductsQuery = {
  limit: NEWEST_PRODUCTS_COUNT,
  sort: "newest",
};

export const getProducts = (query: ProductsQuery) =>
  apiGetPage<Product>(`/products${toQueryString(query)}`);

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

/** The All products page's state, kept in its URL: search, sort and page, and the list query. */
export function productBrowserState(params: URLSearchParams) {
  const q = params.get("q") ?? "";
  const sortParam = params.get("sort");
  const sort: ProductSort = isSort(sortParam) ? sortParam : "newest";
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1));
  const query: ProductsQuery = {
    limit: PRODUCTS_PAGE_SIZE,
    offset: (page - 1) * PRODUCTS_PAGE_SIZE,
    sort,
    q: q || undefined,
  };
  return { q, sort, page, maxPage: MAX_PAGE, query };
}
