import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { signupSchema, type SignupInput } from "#contract/auth";
import { FormField } from "../../../components/form-field";
import { useSignUp } from "../api/sign-in";

export function SignupForm({ onSignedUp }: { onSignedUp(): void }) {
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupInput>({ resolver: zodResolver(signupSchema) });

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={handleSubmit((input) => signUp.mutate(input, { onSuccess: onSignedUp }))}
    >
      <FormField
        label="Name"
        autoComplete="name"
        error={errors.name?.message}
        {...register("name")}
      />
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
        autoComplete="new-password"
        error={errors.password?.message}
        {...register("password")}
      />
      {signUp.error && (
        <p role="alert" className="text-error">
          {signUp.error.message}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={signUp.isPending}>
        {signUp.isPending && <span className="loading loading-spinner loading-sm" />}
        Sign Up
      </button>
    </form>
  );
}
