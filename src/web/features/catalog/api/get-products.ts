import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { Product, ProductListQuery } from "../../../../contract/products";
import { apiGetPage, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export type ProductsQuery = Partial<ProductListQuery>;

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
