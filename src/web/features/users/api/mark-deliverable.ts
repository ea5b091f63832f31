import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MarkedDeliverable } from "#contract/users";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Takes the "Email bounces" mark off a user's address (the admin knows it works again). */
export const markDeliverable = (userId: string) =>
  apiSend<MarkedDeliverable>("DELETE", `/users/${encodeURIComponent(userId)}/email-bounce`);

export function useMarkDeliverable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markDeliverable,
    // Awaited, so the button stays busy until the list shows the mark gone (and hides it).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}
