import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Changes the password (the current one is required); the account's other sessions end. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      apiSend("POST", "/auth/change-password", { ...input, revokeOtherSessions: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.session }),
  });
}

/** Sends the verification link again to the signed-in account's address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string) =>
      apiSend("POST", "/auth/send-verification-email", { email, callbackURL: "/email-verified" }),
  });
}
