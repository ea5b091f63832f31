import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UserRemoved } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const removeUser = (id: string) =>
  apiSend<UserRemoved>("DELETE", `/users/${encodeURIComponent(id)}`);

export function useRemoveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeUser,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
        // Their unpaid orders were cancelled and the stock returned.
        queryClient.invalidateQueries({ queryKey: queryKeys.orders.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.products.all }),
      ]),
  });
}
