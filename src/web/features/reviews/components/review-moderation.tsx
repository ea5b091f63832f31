import { useConfirm } from "../../../components/confirm-dialog";
import { useModerateReview } from "../api/moderate-review";

/** Asks the admin before a review is deleted for good: `confirmDelete(author)`; render `dialog`. */
export function useConfirmDelete() {
  const [confirm, dialog] = useConfirm();
  const confirmDelete = (author: string) =>
    confirm({
      title: `Delete the review by ${author}?`,
      body: "This cannot be undone.",
      confirmLabel: "Delete",
    });
  return [confirmDelete, dialog] as const;
}

/** An admin's buttons under a review: hide it, or delete it after confirming. */
export function ReviewModeration({ id, author }: { id: string; author: string }) {
  const moderate = useModerateReview();
  const [confirmDelete, confirmDialog] = useConfirmDelete();
  return (
    <div className="flex gap-2">
      <button
        type="button"
        className="btn btn-outline btn-xs"
        disabled={moderate.isPending}
        onClick={() => moderate.mutate({ id, action: "hide" })}
      >
        Hide
      </button>
      <button
        type="button"
        className="btn btn-error btn-outline btn-xs"
        disabled={moderate.isPending}
        onClick={async () => {
          if (await confirmDelete(author)) moderate.mutate({ id, action: "delete" });
        }}
      >
        Delete
      </button>
      {moderate.error && (
        <span role="alert" className="text-xs text-error">
          {moderate.error.message}
        </span>
      )}
      {confirmDialog}
    </div>
  );
}
