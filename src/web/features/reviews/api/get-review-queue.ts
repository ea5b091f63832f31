import { useQuery } from "@tanstack/react-query";
import type { Review } from "#contract/reviews";
import { apiGetPage, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Which admin queue: the reviews admins hid, or the ones awaiting approval. */
export type ReviewQueueKind = "hidden" | "pending";

/** Admin: one of the review queues, newest first. */
export function useReviewQueue(
  which: ReviewQueueKind,
  page: { limit: number; offset: number },
  enabled: boolean,
) {
  return useQuery({
    queryKey: queryKeys.reviews.queue(which, page),
    queryFn: () => apiGetPage<Review>(`/reviews/${which}${toQueryString(page)}`),
    enabled,
  });
}
