import type { UseFormRegisterReturn } from "react-hook-form";
import { FormField } from "./form-field";

/** A registered field and its message, if any. */
interface Field {
  field: UseFormRegisterReturn;
  error?: string;
}

/**
 * A new password and the same again, as setting one asks (a reset link, a change of password),
 * marked for the browser's password manager as a new one.
 */
export function NewPasswordFields({ password, confirm }: { password: Field; confirm: Field }) {
  return (
    <>
      <FormField
        label="New password"
        type="password"
        autoComplete="new-password"
        error={password.error}
        {...password.field}
      />
      <FormField
        label="New password again"
        type="password"
        autoComplete="new-password"
        error={confirm.error}
        {...confirm.field}
      />
    </>
  );
}
