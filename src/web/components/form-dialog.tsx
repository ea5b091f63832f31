import type { BaseSyntheticEvent, ReactNode } from "react";
import type { DefaultValues, FieldValues } from "react-hook-form";
import type { z } from "zod";
import { notify } from "../lib/notify";
import { useApiForm } from "../lib/use-api-form";
import { DialogButtons } from "./dialog-buttons";
import { FormError } from "./form-field";
import { Modal } from "./modal";

/**
 * A form in a dialog (a record's edit, a new key): its fields, the refusal that names no field,
 * then Cancel and the submit button (`submitLabel`, default "Save"), both held while it is sent.
 * `named`: the form is named after the dialog's title too, for finding it by its role.
 */
export function FormDialog({
  title,
  named = false,
  onClose,
  onSubmit,
  busy,
  formError,
  submitLabel = "Save",
  children,
}: {
  title: string;
  named?: boolean;
  onClose(): void;
  /** `useApiForm`'s `submitWith(send)`. */
  onSubmit: (e?: BaseSyntheticEvent) => Promise<void>;
  busy: boolean;
  formError?: string;
  submitLabel?: string;
  children: ReactNode;
}) {
  return (
    <Modal open title={title} onClose={onClose}>
      <form
        noValidate
        aria-label={named ? title : undefined}
        className="flex flex-col gap-3"
        onSubmit={onSubmit}
      >
        {children}
        <FormError message={formError} />
        <DialogButtons busy={busy} onClose={onClose}>
          {submitLabel}
        </DialogButtons>
      </form>
    </Modal>
  );
}

/**
 * The form of a FormDialog that writes, says so and closes: `useApiForm` of `schema` from
 * `defaultValues`, and `dialog`, what the FormDialog takes of it (spread as `{...dialog}`). Its
 * submit awaits `write(values)` (the dialog held while `busy`: the mutation's `isPending`), shows
 * what `said(answer, values)` returns, then closes the dialog; a refusal stays in the dialog. A
 * dialog whose answer is shown next (a new key, once) gives `onAnswer` instead of `said`: the
 * answer goes to it, and it closes the dialog itself.
 */
export function useFormDialog<Input extends FieldValues, Output extends FieldValues, Answer>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<NoInfer<Input>>,
  {
    write,
    busy,
    onClose,
    ...after
  }: {
    write: (values: Output) => Promise<Answer>;
    busy: boolean;
    onClose(): void;
  } & (
    | { said: (answer: Answer, values: Output) => string; onAnswer?: never }
    | { onAnswer: (answer: Answer) => void; said?: never }
  ),
) {
  const form = useApiForm(schema, { defaultValues });
  const dialog = {
    onClose,
    busy,
    formError: form.formError,
    onSubmit: form.submitWith(async (values) => {
      const answer = await write(values);
      if (after.onAnswer) return after.onAnswer(answer);
      notify.success(after.said(answer, values));
      onClose();
    }),
  };
  return { ...form, dialog };
}
