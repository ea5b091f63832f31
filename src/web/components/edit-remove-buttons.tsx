import type { ButtonHTMLAttributes, ReactNode } from "react";

/**
 * A row's small action button, named after what it acts on for screen readers ("Rotate
 * Warehouse"); `danger` for what removes or undoes.
 */
export function RowButton({
  label,
  danger = false,
  children,
  ...button
}: {
  /** Its accessible name: the action and the row. */
  label: string;
  danger?: boolean;
  children: ReactNode;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "className" | "aria-label">) {
  return (
    <button
      type="button"
      className={danger ? "btn btn-sm btn-outline btn-error" : "btn btn-sm"}
      aria-label={label}
      {...button}
    >
      {children}
    </button>
  );
}

/**
 * A row's Edit and Remove buttons (an admin list's rows, the address book's entries), named
 * after what they act on for screen readers ("Edit Texas sales tax"). Remove only asks: the
 * caller opens its ConfirmDialog.
 */
export function EditRemoveButtons({
  name,
  onEdit,
  onRemove,
}: {
  /** What the row is, as a person reads it. */
  name: string;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <>
      <RowButton label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </RowButton>
      <RowButton label={`Remove ${name}`} danger onClick={onRemove}>
        Remove
      </RowButton>
    </>
  );
}
