import type { ButtonHTMLAttributes, ReactNode } from "react";
import type { Column } from "./data-table";

// The literal class names of each tone, for Tailwind to find them.
const rowButtonTones = {
  plain: "btn btn-sm",
  outline: "btn btn-sm btn-outline",
  primary: "btn btn-sm btn-primary",
  ghost: "btn btn-sm btn-ghost",
  danger: "btn btn-sm btn-outline btn-error",
};

/**
 * A row's small action button, named after what it acts on for screen readers ("Rotate
 * Warehouse"); its `tone` says what it does: `primary` for the row's main step, `danger` for
 * what removes or undoes, `outline` or `ghost` for a lesser one (`plain` by default).
 */
export function RowButton({
  label,
  tone = "plain",
  children,
  ...button
}: {
  /** Its accessible name: the action and the row. */
  label: string;
  tone?: keyof typeof rowButtonTones;
  children: ReactNode;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "className" | "aria-label">) {
  return (
    <button type="button" className={rowButtonTones[tone]} aria-label={label} {...button}>
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
      <RowButton label={`Remove ${name}`} tone="danger" onClick={onRemove}>
        Remove
      </RowButton>
    </>
  );
}

/**
 * An admin list's Actions column: each row's Edit and Remove buttons (EditRemoveButtons), named
 * after the row by `name`.
 */
export function editRemoveColumn<Row>(
  name: (row: Row) => string,
  onEdit: (row: NoInfer<Row>) => void,
  onRemove: (row: NoInfer<Row>) => void,
): Column<Row> {
  return {
    header: "Actions",
    role: "actions",
    cell: (row) => (
      <EditRemoveButtons
        name={name(row)}
        onEdit={() => onEdit(row)}
        onRemove={() => onRemove(row)}
      />
    ),
  };
}
