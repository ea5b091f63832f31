import { useMutation } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";

/** Asks for the reset email; the answer is the same whether or not the address has an account. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      apiSend<{ status: boolean }>("POST", "/auth/request-password-reset", { email }),
  });
}

/** Sets the new password with the emailed token (single use; every session of the account ends). */
export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; newPassword: string }) =>
      apiSend<{ status: boolean }>("POST", "/auth/reset-password", input),
  });
}
