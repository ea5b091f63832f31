import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { forgotPasswordSchema, type ForgotPasswordInput } from "#contract/auth";
import { FormError, SubmitButton } from "../../../components/form-field";
import { EmailField } from "./email-field";
import { useRequestPasswordReset } from "../api/password-reset";

export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema) });

  if (request.isSuccess) {
    return (
      <p role="status" className="alert alert-success">
        If an account uses {getValues("email")}, we have sent it a link to set a new password. The
        link works once, for one hour.
      </p>
    );
  }
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={handleSubmit(({ email }) => request.mutate(email))}
    >
      <p className="text-sm">
        Type the email address of your account: we will send you a link to set a new password.
      </p>
      <EmailField error={errors.email?.message} {...register("email")} />
      <FormError message={request.error?.message} className="text-error" />
      <SubmitButton busy={request.isPending}>Send the link</SubmitButton>
    </form>
  );
}
