import type { BaseSyntheticEvent, ReactNode } from "react";
import { FormError } from "../../../components/form-field";
import { notify } from "../../../lib/notify";

/**
 * A pricing list's form for a new entry, above the list: the entry's own form (`useApiForm` with
 * its `fields`) in a bordered grid (`grid` gives its columns by width), the submit button and the
 * form's refusal. `create` sends the values and answers what the toast says; the form then starts
 * again. The browser's own checks are off unless `browserChecks` (the schema's messages show
 * beside the fields).
 */
export function NewEntryForm<V>({
  label,
  grid,
  submitLabel,
  form: { submitWith, reset, formError, fields },
  create,
  busy,
  errorClassName,
  browserChecks = false,
}: {
  label: string;
  grid: string;
  submitLabel: string;
  form: {
    submitWith(send: (values: V) => unknown): (e?: BaseSyntheticEvent) => Promise<void>;
    reset(): void;
    formError?: string;
    fields: ReactNode;
  };
  create(values: V): Promise<string>;
  busy: boolean;
  errorClassName?: string;
  browserChecks?: boolean;
}) {
  return (
    <form
      noValidate={!browserChecks}
      aria-label={label}
      className={`grid grid-cols-1 gap-3 rounded-box border border-base-300 p-4 ${grid} lg:items-end`}
      onSubmit={submitWith(async (values) => {
        const created = await create(values);
        reset();
        notify.success(created);
      })}
    >
      {fields}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {submitLabel}
      </button>
      <FormError message={formError} className={errorClassName} />
    </form>
  );
}
