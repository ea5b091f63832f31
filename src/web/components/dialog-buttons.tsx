import type { ReactNode } from "react";

/**
 * A form dialog's Cancel and submit buttons, both held while the form is sent (`busy`); the
 * submit button says what it does ("Save", "Create key").
 */
export function DialogButtons({
  busy,
  onClose,
  children,
}: {
  busy: boolean;
  onClose(): void;
  children: ReactNode;
}) {
  return (
    <div className="modal-action flex-wrap">
      <button type="button" className="btn" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {children}
      </button>
    </div>
  );
}
