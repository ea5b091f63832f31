import { Fragment, type FormEventHandler, type ReactNode } from "react";
import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import type { DefaultValues, FieldValues, Path } from "react-hook-form";
import type { z } from "zod";
import { notify } from "../lib/notify";
import { useApiForm, type FieldProps } from "../lib/use-api-form";
import { FieldFrame, FormError } from "./form-field";
import { PageSpinner } from "./spinner";
import { QueryError } from "./query-error";

/**
 * A form of the store's settings, started from their saved values: a spinner while they load,
 * the error should they fail, and the form drawn afresh from the values each save answers.
 */
export function SettingsLoader<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (saved: T) => ReactNode;
}) {
  if (query.isPending) return <PageSpinner />;
  if (query.error) return <QueryError error={query.error} />;
  return <Fragment key={JSON.stringify(query.data)}>{children(query.data)}</Fragment>;
}

/**
 * A settings form's state: `useApiForm` with the contract's schema, started from the saved
 * values, and `frame`, what its `SettingsFormFrame` takes: a submit that saves the settings
 * (`save`, their mutation) and says so with `savedMessage` of what the store answered.
 */
export function useSettingsForm<Input extends FieldValues, Output extends FieldValues, Saved>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  save: UseMutationResult<Saved, Error, Output>,
  savedMessage: (saved: Saved) => string,
) {
  const form = useApiForm(schema, { defaultValues });
  const frame = {
    formError: form.formError,
    busy: save.isPending,
    onSubmit: form.submitWith(async (next) => {
      notify.success(savedMessage(await save.mutateAsync(next)));
    }),
  };
  return { ...form, frame };
}

/**
 * A settings form's frame: its fields (and what they mean), the refusal that belongs to no one
 * field, and the save button, held while the settings are sent (`busy`).
 */
export function SettingsFormFrame({
  label,
  onSubmit,
  formError,
  busy,
  saveLabel,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  formError?: string;
  busy: boolean;
  saveLabel: string;
  children: ReactNode;
}) {
  return (
    <form
      className="flex max-w-xl flex-col gap-3"
      noValidate
      aria-label={label}
      onSubmit={onSubmit}
    >
      {children}
      <FormError message={formError} />
      <button type="submit" className="btn btn-primary w-fit" disabled={busy}>
        {saveLabel}
      </button>
    </form>
  );
}

/** A setting's whole number (days, hours), in a narrow input with its refusal under it. */
export function SettingNumberField({
  id,
  label,
  min,
  max,
  step = 1,
  field: { error, ...field },
}: {
  id: string;
  label: string;
  min: number;
  max?: number;
  /** 0.01 for an amount of money; whole numbers otherwise. */
  step?: number;
  /** The form's `field(name, { valueAsNumber: true })`. */
  field: FieldProps;
}) {
  return (
    <FieldFrame id={id} label={label} error={error} linkHint={false}>
      {(aria) => (
        <input
          {...aria}
          type="number"
          min={min}
          max={max}
          step={step}
          className={`input input-bordered w-32 ${error ? "input-error" : ""}`}
          {...field}
        />
      )}
    </FieldFrame>
  );
}

/** A number of a settings form: its input's id, label and range, and the value it sets. */
export interface NumberSetting<Name extends string> {
  name: Name;
  id: string;
  label: string;
  min: number;
  max?: number;
  step?: number;
}

/** What a `NumberSettingsForm` is drawn from, but for its `query`. */
interface NumberSettingsProps<Input extends FieldValues, Output extends FieldValues, Saved> {
  save: UseMutationResult<Saved, Error, Output>;
  schema: z.ZodType<Output, Input>;
  messages: { saved: (saved: Saved) => string; defaultsInForce: string };
  label: string;
  saveLabel: string;
  fields: readonly NumberSetting<Path<Input>>[];
  children: ReactNode;
}

/** The values a settings form of numbers reads: they, and when an admin saved them (null: never). */
type SavedNumbers<Input extends FieldValues> = Input & { updatedAt: string | null };

/**
 * A settings form of numbers only (`SettingNumberField`s, in the order of `fields`), started from
 * the values `query` reads and saved with `save`: under them what they mean (`children`) and,
 * while no admin has saved them (`updatedAt` null), `messages.defaultsInForce`; a save says
 * `messages.saved` of what the store answered.
 */
export function NumberSettingsForm<
  Input extends FieldValues,
  Output extends FieldValues,
  Saved extends SavedNumbers<Input>,
>({
  query,
  ...form
}: NumberSettingsProps<Input, Output, Saved> & { query: UseQueryResult<Saved> }) {
  return (
    <SettingsLoader query={query}>
      {(saved) => <NumberSettings saved={saved} {...form} />}
    </SettingsLoader>
  );
}

function NumberSettings<
  Input extends FieldValues,
  Output extends FieldValues,
  Saved extends SavedNumbers<Input>,
>({
  saved: { updatedAt, ...values },
  save,
  schema,
  messages,
  label,
  saveLabel,
  fields,
  children,
}: NumberSettingsProps<Input, Output, Saved> & { saved: Saved }) {
  const { field, frame } = useSettingsForm(
    schema,
    values as DefaultValues<Input>,
    save,
    messages.saved,
  );
  return (
    <SettingsFormFrame label={label} saveLabel={saveLabel} {...frame}>
      {fields.map(({ name, ...number }) => (
        <SettingNumberField key={name} {...number} field={field(name, { valueAsNumber: true })} />
      ))}
      <p className="text-sm text-base-content/75">
        {children}
        {updatedAt === null && ` ${messages.defaultsInForce}`}
      </p>
    </SettingsFormFrame>
  );
}
