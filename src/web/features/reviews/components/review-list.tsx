import { useState, type ReactNode } from "react";
import type { Review } from "#contract/reviews";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { useReviews } from "../api/get-reviews";
import { ReviewCard } from "./review-card";
import { ReviewListSkeleton } from "./review-skeletons";

/**
 * Reviews, newest first; with `paged`, the whole list a page at a time. `actions` adds controls
 * under each review (an admin's moderation on /review: passed in, so the landing page's list
 * does not carry that code).
 */
export function ReviewList({
  pageSize,
  paged = false,
  actions,
}: {
  pageSize: number;
  paged?: boolean;
  actions?: (review: Review) => ReactNode;
}) {
  const [page, setPage] = useState(1);
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
            {actions?.(r)}
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
