import { useQuery } from "@tanstack/react-query";
import type { Review } from "#contract/reviews";
import { apiGetPage, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Admin: the reviews admins hid, newest first. */
export function useHiddenReviews(page: { limit: number; offset: number }, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.reviews.hidden(page),
    queryFn: () => apiGetPage<Review>(`/reviews/hidden${toQueryString(page)}`),
    enabled,
  });
}
