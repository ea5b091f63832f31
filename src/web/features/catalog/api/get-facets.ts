import { useQuery } from "@tanstack/react-query";
import type { Facets } from "#contract/facets";
import { apiGet, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import type { ProductsQuery } from "./get-products";

/**
 * The list's filters, without its paging and sort: the facets' query, the same for every page
 * (so the server's cached answer is too).
 */
export function facetsQuery(query: ProductsQuery): ProductsQuery {
  return { ...query, limit: undefined, offset: undefined, sort: undefined };
}

/**
 * The chosen category's attribute filters with their counts (`GET /api/products/facets`), asked
 * only when a category is chosen. While other filters change, the facets shown stay until the
 * new counts come, unless the category changed.
 */
export function useFacets(query: ProductsQuery) {
  const filters = facetsQuery(query);
  return useQuery({
    queryKey: [...queryKeys.products.all, "facets", filters] as const,
    queryFn: () => apiGet<Facets>(`/products/facets${toQueryString(filters)}`),
    enabled: filters.category !== undefined,
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as ProductsQuery | undefined)?.category === filters.category
        ? previous
        : undefined,
  });
}
