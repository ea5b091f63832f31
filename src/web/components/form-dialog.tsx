import type { BaseSyntheticEvent, ReactNode } from "react";
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
