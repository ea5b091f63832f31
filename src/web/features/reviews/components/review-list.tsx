import { useState } from "react";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { useSession } from "../../../lib/session";
import { useReviews } from "../api/get-reviews";
import { ReviewCard } from "./review-card";
import { ReviewModeration } from "./review-moderation";

/** Reviews, newest first; with `paged`, the whole list a page at a time. */
export function ReviewList({ pageSize, paged = false }: { pageSize: number; paged?: boolean }) {
  const [page, setPage] = useState(1);
  // Admins moderate on the paged list (the /review page).
  const isAdmin = useSession().data?.role === "admin" && paged;
  const { data, error, isPending } = useReviews({
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  if (isPending) return <ReviewListSkeleton count={Math.min(pageSize, 6)} />;
  if (error) return <QueryError error={error} />;
  if (data.items.length === 0) {
    return (
      <p className="rounded-box bg-base-200 p-8 text-center text-base-content/70">
        No reviews yet. Signed-in customers can add one from their dashboard.
      </p>
    );
  }
  return (
    <>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Reviews">
        {data.items.map((r) => (
          <li key={r._id} className="flex flex-col gap-2">
            <ReviewCard review={r} />
            {isAdmin && <ReviewModeration id={r._id} author={r.name} />}
          </li>
        ))}
      </ul>
      {paged && (
        <Pagination
          page={page}
          pageCount={Math.max(1, Math.ceil(data.total / pageSize))}
          onChange={setPage}
        />
      )}
    </>
  );
}

/** Review-card-sized placeholders, so the reviews take their place without moving the page. */
function ReviewListSkeleton({ count }: { count: number }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      <span role="status" className="sr-only">
        Loading reviews
      </span>
      {Array.from({ length: count }, (_, i) => (
        <div
          key={i}
          className="card h-42 border border-base-300 bg-base-100 shadow-sm"
          aria-hidden="true"
        />
      ))}
    </div>
  );
}
