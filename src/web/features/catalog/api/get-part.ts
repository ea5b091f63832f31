import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PartPage } from "#contract/parts";
import { apiGet, apiUrl } from "../../../lib/api-client";

/** The API address of a part's public page (the server preloads it in the page's HTML). */
export const partRequest = (slug: string) => apiUrl(`/parts/${encodeURIComponent(slug)}`);

export const partQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ["parts", slug.toLowerCase()] as const,
    queryFn: () => apiGet<PartPage>(`/parts/${encodeURIComponent(slug.toLowerCase())}`),
  });

export function usePart(slug: string) {
  return useQuery(partQueryOptions(slug));
}
