import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Review } from "#contract/reviews";
import { apiGetPage, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** How many of the latest reviews the landing page shows. */
export const LANDING_REVIEWS_PAGE_SIZE = 6;

export const getReviews = (page: { limit: number; offset: number }) =>
  apiGetPage<Review>(`/reviews${toQueryString(page)}`);

export const reviewsQueryOptions = (page: { limit: number; offset: number }) =>
  queryOptions({ queryKey: queryKeys.reviews.list(page), queryFn: () => getReviews(page) });

export function useReviews(page: { limit: number; offset: number }) {
  return useQuery(reviewsQueryOptions(page));
}
