import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { loginSchema, type LoginInput } from "#contract/auth";
import { FormError, FormField, SubmitButton } from "../../../components/form-field";
import { EmailField } from "./email-field";
import { fieldProps } from "../../../lib/use-api-form";
import { useSignIn, useVerifyTwoFactor } from "../api/sign-in";

function TwoFactorStep({ onSignedIn }: { onSignedIn(): void }) {
  const verify = useVerifyTwoFactor();
  const [code, setCode] = useState("");
  const [backup, setBackup] = useState(false);
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        verify.mutate({ code: code.trim(), backup }, { onSuccess: onSignedIn });
      }}
    >
      <label className="flex flex-col gap-1">
        <span>{backup ? "Backup code" : "Authentication code"}</span>
        <input
          className="input input-bordered"
          autoComplete="one-time-code"
          inputMode={backup ? "text" : "numeric"}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </label>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          checked={backup}
          onChange={(e) => setBackup(e.target.checked)}
        />
        Use a backup code
      </label>
      <FormError message={verify.error?.message} className="text-error" />
      <button type="submit" className="btn btn-primary" disabled={verify.isPending || !code}>
        Verify
      </button>
    </form>
  );
}

export function LoginForm({
  onSignedIn,
  codeStep = false,
}: {
  onSignedIn(): void;
  /** Start at the code (a social sign-in of an account with two-factor authentication). */
  codeStep?: boolean;
}) {
  const signIn = useSignIn();
  // With two-factor authentication on, the password is only the first step.
  const [needsCode, setNeedsCode] = useState(codeStep);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema) });
  const field = fieldProps(register, errors);
  if (needsCode) return <TwoFactorStep onSignedIn={onSignedIn} />;

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={handleSubmit((input) =>
        signIn.mutate(input, {
          onSuccess: (res) =>
            (res as { twoFactorRedirect?: boolean } | undefined)?.twoFactorRedirect
              ? setNeedsCode(true)
              : onSignedIn(),
        }),
      )}
    >
      <EmailField {...field("email")} />
      <FormField
        label="Password"
        type="password"
        autoComplete="current-password"
        {...field("password")}
      />
      <FormError message={signIn.error?.message} className="text-error" />
      <SubmitButton busy={signIn.isPending}>Login</SubmitButton>
    </form>
  );
}
