import { useModerateReview } from "../api/moderate-review";

/** Asks the admin before a review is deleted for good. */
export const confirmDelete = (author: string) =>
  window.confirm(`Delete the review by ${author}? This cannot be undone.`);

/** An admin's buttons under a review: hide it, or delete it after confirming. */
export function ReviewModeration({ id, author }: { id: string; author: string }) {
  const moderate = useModerateReview();
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
        onClick={() => {
          if (confirmDelete(author)) {
            moderate.mutate({ id, action: "delete" });
          }
        }}
      >
        Delete
      </button>
      {moderate.error && (
        <span role="alert" className="text-xs text-error">
          {moderate.error.message}
        </span>
      )}
    </div>
  );
}
