import type { FormEventHandler, ReactNode } from "react";
import { FormError } from "../../../components/form-field";

/**
 * A pricing list's form for a new entry, above the list: its fields in a bordered grid (`grid`
 * gives its columns by width), the submit button and the form's refusal. The browser's own checks
 * are off unless `browserChecks` (the schema's messages show beside the fields).
 */
export function NewEntryForm({
  label,
  grid,
  submitLabel,
  busy,
  formError,
  errorClassName,
  browserChecks = false,
  onSubmit,
  children,
}: {
  label: string;
  grid: string;
  submitLabel: string;
  busy: boolean;
  formError?: string;
  errorClassName?: string;
  browserChecks?: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <form
      noValidate={!browserChecks}
      aria-label={label}
      className={`grid grid-cols-1 gap-3 rounded-box border border-base-300 p-4 ${grid} lg:items-end`}
      onSubmit={onSubmit}
    >
      {children}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {submitLabel}
      </button>
      <FormError message={formError} className={errorClassName} />
    </form>
  );
}
