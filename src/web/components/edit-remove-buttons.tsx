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
      <button type="button" className="btn btn-sm" aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </button>
      <button
        type="button"
        className="btn btn-sm btn-outline btn-error"
        aria-label={`Remove ${name}`}
        onClick={onRemove}
      >
        Remove
      </button>
    </>
  );
}
