import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { signupSchema, type SignupInput } from "#contract/auth";
import { loadPasswordChecker, type PasswordChecker } from "#contract/password-strength";
import { FormError, FormField, SubmitButton } from "../../../components/form-field";
import { EmailField } from "./email-field";
import { fieldProps } from "../../../lib/use-api-form";
import { useSignUp } from "../api/sign-in";

export function SignupForm({ onSignedUp }: { onSignedUp(): void }) {
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<SignupInput>({ resolver: zodResolver(signupSchema) });
  const field = fieldProps(register, errors);
  // The strength check's word lists load in their own chunk, once this form is shown.
  const [checker, setChecker] = useState<{ check: PasswordChecker }>();
  useEffect(() => {
    let live = true;
    void loadPasswordChecker().then((check) => live && setChecker({ check }));
    return () => {
      live = false;
    };
  }, []);
  const [name, email, password] = useWatch({ control, name: ["name", "email", "password"] });
  // Shown as the password is typed, once it is long enough for the length rule to pass.
  const weak =
    checker && password && password.length >= 6
      ? checker.check(password, { email, name })
      : undefined;

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={handleSubmit((input) => {
        if (!weak) signUp.mutate(input, { onSuccess: onSignedUp });
      })}
    >
      <FormField label="Name" autoComplete="name" {...field("name")} />
      <EmailField {...field("email")} />
      <FormField
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message ?? weak}
        {...register("password")}
      />
      <FormError message={signUp.error?.message} className="text-error" />
      <SubmitButton busy={signUp.isPending}>Sign Up</SubmitButton>
    </form>
  );
}
