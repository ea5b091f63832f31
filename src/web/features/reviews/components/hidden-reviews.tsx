import { useState } from "react";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { useSession } from "../../../lib/session";
import { useHiddenReviews } from "../api/get-hidden-reviews";
import { useModerateReview } from "../api/moderate-review";
import { ReviewCard } from "./review-card";

const PAGE_SIZE = 6;

/**
 * Admins only, under the public reviews: the reviews admins hid, each with "Show again" (back in
 * the list, the average and the count). Nothing for anyone else, or when none is hidden.
 */
export function HiddenReviews() {
  const isAdmin = useSession().data?.role === "admin";
  const [page, setPage] = useState(1);
  const hidden = useHiddenReviews({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, isAdmin);
  const moderate = useModerateReview();
  if (!isAdmin || hidden.isPending) return null;
  if (hidden.error) return <QueryError error={hidden.error} />;
  if (hidden.data.total === 0) return null;
  return (
    <section aria-labelledby="hidden-reviews" className="mt-12 flex flex-col gap-4">
      <h2 id="hidden-reviews" className="text-xl font-semibold">
        Hidden reviews ({hidden.data.total})
      </h2>
      <p className="text-sm text-base-content/70">
        Only admins see these. They count in neither the list nor the average.
      </p>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Hidden reviews">
        {hidden.data.items.map((r) => (
          <li key={r._id} className="flex flex-col gap-2 opacity-80">
            <ReviewCard review={r} />
            <div>
              <button
                type="button"
                className="btn btn-outline btn-xs"
                disabled={moderate.isPending}
                onClick={() => moderate.mutate({ id: r._id, action: "show" })}
              >
                Show again
              </button>
            </div>
          </li>
        ))}
      </ul>
      {moderate.error && (
        <p role="alert" className="text-sm text-error">
          {moderate.error.message}
        </p>
      )}
      <Pagination
        page={page}
        pageCount={Math.max(1, Math.ceil(hidden.data.total / PAGE_SIZE))}
        onChange={setPage}
      />
    </section>
  );
}
