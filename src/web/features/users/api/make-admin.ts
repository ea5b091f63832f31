import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MadeAdmin } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const makeAdmin = (email: string) =>
  apiSend<MadeAdmin>("PUT", `/user/admin/${encodeURIComponent(email)}`);

export function useMakeAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeAdmin,
    // Awaited, so the button stays busy until the list shows the new role (and hides it).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}

export const removeAdmin = (email: string) =>
  apiSend<MadeAdmin>("DELETE", `/user/admin/${encodeURIComponent(email)}`);

export function useRemoveAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAdmin,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
