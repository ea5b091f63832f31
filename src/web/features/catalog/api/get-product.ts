import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductDetail } from "#contract/products";
import { apiGet } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const getProduct = (id: string) =>
  apiGet<ProductDetail>(`/products/${encodeURIComponent(id)}`);

export const productQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.products.detail(id), queryFn: () => getProduct(id) });

export function useProduct(id: string) {
  return useQuery(productQueryOptions(id));
}
