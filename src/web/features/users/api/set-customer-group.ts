import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CustomerGroupSet } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** A customer's own customer group (what they pay while in no company; docs/pricing.md). */
export const setCustomerGroup = ({
  userId,
  customerGroupId,
}: {
  userId: string;
  customerGroupId: string;
}) =>
  apiSend<CustomerGroupSet>("PUT", `/users/${encodeURIComponent(userId)}/customer-group`, {
    customerGroupId,
  });

export function useSetCustomerGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCustomerGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
