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
