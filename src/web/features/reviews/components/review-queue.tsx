import { useState } from "react";
import type { Review } from "#contract/reviews";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { useSession } from "../../../lib/session";
import { useReviewQueue, type ReviewQueueKind } from "../api/get-review-queue";
import { useModerateReview, type ModerationAction } from "../api/moderate-review";
import { useConfirmDelete } from "./review-moderation";
import { ReviewCard } from "./review-card";
import { FormError } from "../../../components/form-field";

const PAGE_SIZE = 6;

interface QueueAction {
  action: ModerationAction;
  label: string;
  className: string;
}

/** What each queue is called, says and offers under each review. */
const queues: Record<ReviewQueueKind, { title: string; note: string; actions: QueueAction[] }> = {
  pending: {
    title: "Reviews awaiting approval",
    note:
      "Only admins see these: reviews from customers without a paid order. Approved, they join " +
      "the list and the average.",
    actions: [
      { action: "approve", label: "Approve", className: "btn btn-primary btn-xs" },
      { action: "delete", label: "Delete", className: "btn btn-error btn-outline btn-xs" },
    ],
  },
  hidden: {
    title: "Hidden reviews",
    note: "Only admins see these. They count in neither the list nor the average.",
    actions: [{ action: "show", label: "Show again", className: "btn btn-outline btn-xs" }],
  },
};

/**
 * Admins only, under the public reviews: one of the moderation queues (the reviews awaiting
 * approval, or the ones admins hid), each review with that queue's buttons. Nothing for anyone
 * else, or when the queue is empty.
 */
export function ReviewQueue({ which }: { which: ReviewQueueKind }) {
  const isAdmin = useSession().data?.role === "admin";
  const [page, setPage] = useState(1);
  const queue = useReviewQueue(
    which,
    { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    isAdmin,
  );
  const moderate = useModerateReview();
  const [confirmDelete, confirmDialog] = useConfirmDelete();
  if (!isAdmin || queue.isPending) return null;
  if (queue.error) return <QueryError error={queue.error} />;
  if (queue.data.total === 0) return null;
  const { title, note, actions } = queues[which];
  const headingId = `${which}-reviews`;
  const act = async (review: Review, action: ModerationAction) => {
    if (action === "delete" && !(await confirmDelete(review.name))) return;
    moderate.mutate({ id: review._id, action });
  };
  return (
    <section aria-labelledby={headingId} className="mt-12 flex flex-col gap-4">
      <h2 id={headingId} className="text-xl font-semibold">
        {title} ({queue.data.total})
      </h2>
      <p className="text-sm text-base-content/70">{note}</p>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label={title}>
        {queue.data.items.map((r) => (
          <li key={r._id} className="flex flex-col gap-2 opacity-80">
            <ReviewCard review={r} />
            <div className="flex gap-2">
              {actions.map(({ action, label, className }) => (
                <button
                  key={action}
                  type="button"
                  className={className}
                  disabled={moderate.isPending}
                  onClick={() => void act(r, action)}
                >
                  {label}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
      <FormError message={moderate.error?.message} />
      <Pagination
        page={page}
        pageCount={Math.max(1, Math.ceil(queue.data.total / PAGE_SIZE))}
        onChange={setPage}
      />
      {confirmDialog}
    </section>
  );
}
