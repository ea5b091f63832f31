import type { UseFormRegisterReturn } from "react-hook-form";
import { FormField } from "../../../components/form-field";

/** The account's email, as signing in, signing up and asking for a new password ask it. */
export function EmailField({ error, ...field }: UseFormRegisterReturn & { error?: string }) {
  return <FormField label="Email" type="email" autoComplete="email" error={error} {...field} />;
}
