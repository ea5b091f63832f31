import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { changePasswordSchema, type ChangePasswordInput } from "#contract/auth";
import { FormField, SubmitButton } from "../../../components/form-field";
import { NewPasswordFields } from "../../../components/new-password-fields";
import { ApiError } from "../../../lib/api-client";
import { notify } from "../../../lib/notify";
import { fieldProps } from "../../../lib/use-api-form";
import { useChangePassword } from "../api/password";

/** Change password: the current one is asked for; the account's other sessions end. */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirm: "" },
  });
  const field = fieldProps(register, errors);
  const wrongCurrent = change.error instanceof ApiError && change.error.code === "invalid_password";

  return (
    <form
      noValidate
      aria-labelledby="change-password-title"
      className="card border border-base-300 bg-base-100"
      onSubmit={handleSubmit(({ currentPassword, newPassword }) =>
        change.mutate(
          { currentPassword, newPassword },
          {
            onSuccess: () => {
              reset();
              notify.success("Your password is changed. Your other sessions were signed out.");
            },
          },
        ),
      )}
    >
      <div className="card-body gap-4">
        <h2 id="change-password-title" className="card-title">
          Change password
        </h2>
        <FormField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...field("currentPassword")}
        />
        <NewPasswordFields
          password={{ field: register("newPassword"), error: errors.newPassword?.message }}
          confirm={{ field: register("confirm"), error: errors.confirm?.message }}
        />
        {change.error && (
          <p role="alert" className="text-error">
            {wrongCurrent ? "The current password is not right." : change.error.message}
          </p>
        )}
        <div className="card-actions justify-end">
          <SubmitButton busy={change.isPending}>Change password</SubmitButton>
        </div>
      </div>
    </form>
  );
}
