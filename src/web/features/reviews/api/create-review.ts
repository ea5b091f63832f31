import type { ReviewCreate, ReviewCreated } from "#contract/reviews";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

export const createReview = (input: ReviewCreate) =>
  apiSend<ReviewCreated>("POST", "/reviews", input);

export function useCreateReview() {
  // Every list page and the summary change with a new review.
  return useInvalidatingMutation(queryKeys.reviews.all, createReview);
}
