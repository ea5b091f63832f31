import type { BaseSyntheticEvent, ReactNode } from "react";
import type { DefaultValues, FieldValues, Path } from "react-hook-form";
import type { z } from "zod";
import { FormError, FormField } from "../../../components/form-field";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";

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

/**
 * A pricing list's form for a new entry known by its name alone (a price list, a customer
 * group): the name (`label`, `id`) beside the submit button, a refusal that names no field shown
 * as the name's (the only one). `create` sends the values (`schema`, from `defaultValues`) and
 * answers what was made; "Created" and its name are said and the form starts again.
 */
export function NewNameForm<
  Input extends FieldValues & { name: string },
  Output extends FieldValues,
>({
  schema,
  defaultValues,
  label,
  id,
  submitLabel,
  create,
  busy,
}: {
  schema: z.ZodType<Output, Input>;
  defaultValues: DefaultValues<NoInfer<Input>>;
  label: string;
  id: string;
  submitLabel: string;
  create(values: Output): Promise<{ name: string }>;
  busy: boolean;
}) {
  const { reset, submitWith, formError, field } = useApiForm(schema, { defaultValues });
  const name = field("name" as Path<Input>);
  return (
    <form
      className="flex flex-col gap-3 rounded-box border border-base-300 p-4 sm:flex-row sm:items-end"
      onSubmit={submitWith(async (input) => {
        const created = await create(input);
        reset();
        notify.success(`Created ${created.name}`);
      })}
    >
      <div className="flex-1">
        <FormField label={label} id={id} required {...name} error={name.error ?? formError} />
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
