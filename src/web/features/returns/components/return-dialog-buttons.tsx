import type { ReactNode } from "react";

/**
 * A returns dialog's Cancel and its submit button (`children` says what it does): the submit held
 * while the dialog's requests run (`busy`), Cancel never. `form` names the form the submit sends
 * when the buttons stand outside it; `danger` for a refusal.
 */
export function ReturnDialogButtons({
  onClose,
  busy,
  form,
  danger = false,
  children,
}: {
  onClose(): void;
  busy: boolean;
  form?: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="modal-action">
      <button type="button" className="btn" onClick={onClose}>
        Cancel
      </button>
      <button
        type="submit"
        form={form}
        className={`btn ${danger ? "btn-error" : "btn-primary"}`}
        disabled={busy}
      >
        {children}
      </button>
    </div>
  );
}
