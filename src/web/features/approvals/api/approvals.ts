import { useQuery } from "@tanstack/react-query";
import type {
  Approval,
  ApprovalDecisionInput,
  ApprovalListQuery,
  ApprovalOutcome,
  ApprovalSettings,
  ApprovalSettingsInput,
} from "#contract/approvals";
import { apiGet, apiSend } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useInvalidatingMutation, useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/** Orders awaiting approval: the owner's company's (an admin: every company's). */
export const useApprovals = (query: ApprovalListQuery) =>
  usePageRead<Approval>(queryKeys.approvals.list(query), "/approvals", query);

/** Approve or decline one, with an optional note for the buyer. */
export function useDecideApproval() {
  return useInvalidatingMutation(
    queryKeys.orders.all,
    (input: { orderId: string; action: "approve" | "decline"; body: ApprovalDecisionInput }) =>
      apiSend<ApprovalOutcome>(
        "POST",
        `/approvals/${encodeURIComponent(input.orderId)}/${input.action}`,
        input.body,
      ),
    { alsoOnError: true },
  );
}

/** Admin: the approval window and the owners' reminder in force. */
export const useApprovalSettings = () =>
  useQuery({
    queryKey: queryKeys.approvals.settings,
    queryFn: () => apiGet<ApprovalSettings>("/approvals/settings"),
  });

/** Admin: sets them (orders placed and reminders sent from now on). */
export function useSetApprovalSettings() {
  return useReplacingMutation(queryKeys.approvals.settings, (settings: ApprovalSettingsInput) =>
    apiSend<ApprovalSettings>("PUT", "/approvals/settings", settings),
  );
}
