import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SiteConfig } from "#contract/site-config";
import { apiGet } from "./api-client";
import { queryKeys } from "./query-keys";

export const getSiteConfig = () => apiGet<SiteConfig>("/config");

export const siteConfigQueryOptions = queryOptions({
  queryKey: queryKeys.siteConfig,
  queryFn: getSiteConfig,
  staleTime: Infinity,
});

export function useSiteConfig() {
  return useQuery(siteConfigQueryOptions);
}

/**
 * The currency a product's prices are in: its answer's own (the market it is priced in: docs/
 * pricing.md "The market chosen"), else `known` (the store's, when the page has it), else the
 * store's from the site config.
 */
export function useProductCurrency(product: { currency?: string }, known?: string) {
  const store = useSiteConfig().data?.currency;
  return product.currency ?? known ?? store;
}
