import type { ReactNode } from "react";
import { Modal } from "./modal";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string;
  /** `danger` (the default) for what destroys or undoes, `positive` for a step forward. */
  tone?: "danger" | "positive";
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before something that cannot be undone; the confirm button really does it. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <Modal open={props.open} title={props.title} onClose={props.onCancel}>
      {props.children && <div className="text-base-content/80">{props.children}</div>}
      {props.error && (
        <p role="alert" className="mt-3 text-error">
          {props.error}
        </p>
      )}
      <div className="modal-action">
        <button type="button" className="btn" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
        <button
          type="button"
          className={`btn ${props.tone === "positive" ? "btn-primary" : "btn-error"}`}
          onClick={props.onConfirm}
          disabled={props.busy}
        >
          {props.busy && <span className="loading loading-spinner loading-sm" />}
          {props.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
