import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { resetPasswordSchema, type ResetPasswordInput } from "#contract/auth";
import { SubmitButton } from "../../../components/form-field";
import { NewPasswordFields } from "../../../components/new-password-fields";
import { ApiError } from "../../../lib/api-client";
import { useResetPassword } from "../api/password-reset";

/** The new password, set with the token from the emailed link. */
export function ResetPasswordForm({ token, onDone }: { token: string; onDone(): void }) {
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetPasswordInput>({ resolver: zodResolver(resetPasswordSchema) });
  const invalidLink = reset.error instanceof ApiError && reset.error.code === "invalid_token";

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={handleSubmit(({ password }) =>
        reset.mutate({ token, newPassword: password }, { onSuccess: onDone }),
      )}
    >
      <NewPasswordFields
        password={{ field: register("password"), error: errors.password?.message }}
        confirm={{ field: register("confirm"), error: errors.confirm?.message }}
      />
      {reset.error && (
        <p role="alert" className="text-error">
          {invalidLink
            ? "This link has expired or was already used. Ask for a new one."
            : reset.error.message}
        </p>
      )}
      <SubmitButton busy={reset.isPending}>Set the new password</SubmitButton>
    </form>
  );
}
