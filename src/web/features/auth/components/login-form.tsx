import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { loginSchema, type LoginInput } from "#contract/auth";
import { FormField } from "../../../components/form-field";
import { useSignIn } from "../api/sign-in";

export function LoginForm({ onSignedIn }: { onSignedIn(): void }) {
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema) });

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={handleSubmit((input) => signIn.mutate(input, { onSuccess: onSignedIn }))}
    >
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register("email")}
      />
      <FormField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register("password")}
      />
      {signIn.error && (
        <p role="alert" className="text-error">
          {signIn.error.message}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={signIn.isPending}>
        {signIn.isPending && <span className="loading loading-spinner loading-sm" />}
        Login
      </button>
    </form>
  );
}
