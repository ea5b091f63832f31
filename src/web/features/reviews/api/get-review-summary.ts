import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReviewSummary } from "#contract/reviews";
import { apiGet } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

// Under the reviews prefix, so invalidating `queryKeys.reviews.all` after a new review refreshes it.
const reviewSummaryKey = [...queryKeys.reviews.all, "summary"] as const;

export const getReviewSummary = () => apiGet<ReviewSummary>("/reviews/summary");

export const reviewSummaryQueryOptions = () =>
  queryOptions({ queryKey: reviewSummaryKey, queryFn: getReviewSummary });

export function useReviewSummary() {
  return useQuery(reviewSummaryQueryOptions());
}
