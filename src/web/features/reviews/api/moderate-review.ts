import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export type ModerationAction = "hide" | "show" | "approve" | "delete";

function send(id: string, action: ModerationAction) {
  switch (action) {
    case "delete":
      return apiSend<null>("DELETE", `/reviews/${id}`);
    case "approve":
      return apiSend<null>("POST", `/reviews/${id}/approve`);
    default:
      return apiSend<null>("PATCH", `/reviews/${id}`, { hidden: action === "hide" });
  }
}

/**
 * Admin: hide a review (out of the list, the average and the count), show a hidden one again,
 * approve one awaiting approval (into the list and the average), or delete it.
 */
export function useModerateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ModerationAction }) => send(id, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reviews.all }),
  });
}
