import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewCreate, ReviewCreated } from "#contract/reviews";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const createReview = (input: ReviewCreate) =>
  apiSend<ReviewCreated>("POST", "/reviews", input);

export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReview,
    // Every list page and the summary change with a new review.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reviews.all }),
  });
}
