import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/**
 * Admin: hide a review (out of the list, the average and the count), show a hidden one again, or
 * delete it.
 */
export function useModerateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: "hide" | "show" | "delete" }) =>
      action === "delete"
        ? apiSend<null>("DELETE", `/reviews/${id}`)
        : apiSend<null>("PATCH", `/reviews/${id}`, { hidden: action === "hide" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reviews.all }),
  });
}
