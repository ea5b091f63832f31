import type { CustomerGroupSet } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { useUserChange } from "./user-change";

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

export const useSetCustomerGroup = () => useUserChange(setCustomerGroup);
