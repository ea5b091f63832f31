import { useQuery } from "@tanstack/react-query";
import type { SiteConfig } from "../../contract/site-config";
import { apiGet } from "./api-client";
import { queryKeys } from "./query-keys";

export const getSiteConfig = () => apiGet<SiteConfig>("/config");

export function useSiteConfig() {
  return useQuery({ queryKey: queryKeys.siteConfig, queryFn: getSiteConfig, staleTime: Infinity });
}
