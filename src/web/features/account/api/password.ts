import { useMutation } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/** Changes the password (the current one is required); the account's other sessions end. */
export function useChangePassword() {
  return useInvalidatingMutation(
    queryKeys.session,
    (input: { currentPassword: string; newPassword: string }) =>
      apiSend("POST", "/auth/change-password", { ...input, revokeOtherSessions: true }),
  );
}

/** Sends the verification link again to the signed-in account's address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string) =>
      apiSend("POST", "/auth/send-verification-email", { email, callbackURL: "/email-verified" }),
  });
}
