import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
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
  return useInvalidatingMutation(
    queryKeys.reviews.all,
    ({ id, action }: { id: string; action: ModerationAction }) => send(id, action),
  );
}
