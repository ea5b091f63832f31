import { useEffect, useId, useRef, type ReactNode } from "react";

interface ModalProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  /** `start`: a full-height panel along the reading side (a drawer), not a centred box. */
  placement?: "middle" | "start";
}

/**
 * A native modal <dialog>: the browser traps focus inside it, makes the page behind it inert, and
 * closes it on Escape (which we turn into onClose).
 */
export function Modal({ open, title, onClose, children, placement = "middle" }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The browser focuses the first focusable element, which may be a read-only field (the
      // order form's Name): start on the first field to fill in instead.
      dialog
        .querySelector<HTMLElement>(
          "input:not([readonly]):not([disabled]):not([type=hidden]), textarea:not([readonly]), select",
        )
        ?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const drawer = placement === "start";
  return (
    <dialog
      ref={ref}
      className={`modal ${drawer ? "modal-start" : ""} backdrop:bg-black/40`}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // A drawer also closes from a tap beside it (a phone has no Escape key); a form's dialog
      // does not, so that nothing typed is lost by a stray tap.
      onClick={drawer ? (e) => e.target === e.currentTarget && onClose() : undefined}
    >
      <div className={drawer ? "modal-box w-[22rem] max-w-[90vw]" : "modal-box"}>
        <div className="mb-4 flex items-start justify-between gap-2">
          <h2 id={titleId} className="text-xl font-bold">
            {title}
          </h2>
          {drawer && (
            <button
              type="button"
              className="btn btn-circle btn-ghost btn-sm"
              aria-label="Close"
              onClick={onClose}
            >
              <span aria-hidden="true">✕</span>
            </button>
          )}
        </div>
        {open && children}
      </div>
    </dialog>
  );
}
