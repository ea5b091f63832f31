import type { UserRemoved } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

export const removeUser = (id: string) =>
  apiSend<UserRemoved>("DELETE", `/users/${encodeURIComponent(id)}`);

export function useRemoveUser() {
  return useInvalidatingMutation(queryKeys.users.all, removeUser, {
    // Their unpaid orders were cancelled and the stock returned.
    also: [queryKeys.orders.all, queryKeys.products.all],
  });
}
