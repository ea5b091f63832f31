import { useEffect, useId, useRef, type ReactNode } from "react";

interface ModalProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
}

/**
 * A native modal <dialog>: the browser traps focus inside it, makes the page behind it inert, and
 * closes it on Escape (which we turn into onClose).
 */
export function Modal({ open, title, onClose, children }: ModalProps) {
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
  return (
    <dialog
      ref={ref}
      className="modal backdrop:bg-black/40"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="modal-box">
        <h2 id={titleId} className="mb-4 text-xl font-bold">
          {title}
        </h2>
        {open && children}
      </div>
    </dialog>
  );
}
