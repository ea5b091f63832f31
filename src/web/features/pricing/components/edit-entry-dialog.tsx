import type { BaseSyntheticEvent, ReactNode } from "react";
import { FormDialog } from "../../../components/form-dialog";
import { notify } from "../../../lib/notify";

/**
 * A pricing list's entry (a price rule, a discount code, a market) changed in a dialog named by
 * its title: the entry's own form (`useApiForm` with its `fields`), filled with it. `save` sends
 * the values and answers what the toast says; the dialog then closes. `children` come above the
 * fields.
 */
export function EditEntryDialog<V>({
  title,
  form: { submitWith, formError, fields },
  save,
  busy,
  onClose,
  children,
}: {
  title: string;
  form: {
    submitWith(send: (values: V) => unknown): (e?: BaseSyntheticEvent) => Promise<void>;
    formError?: string;
    fields: ReactNode;
  };
  save(values: V): Promise<string>;
  busy: boolean;
  onClose(): void;
  children?: ReactNode;
}) {
  return (
    <FormDialog
      title={title}
      named
      onClose={onClose}
      onSubmit={submitWith(async (values) => {
        notify.success(await save(values));
        onClose();
      })}
      busy={busy}
      formError={formError}
    >
      {children}
      {fields}
    </FormDialog>
  );
}
