import { lazy, Suspense } from "react";
import { ReviewList } from "../../features/reviews/components/review-list";
import { ReviewSummary } from "../../features/reviews/components/review-summary";
import { usePageTitle } from "../../components/page-title";
import { useSession } from "../../lib/session";

// An admin's moderation, with its confirmation dialog, loads for admins only: the page is public.
const ReviewModeration = lazy(async () => ({
  default: (await import("../../features/reviews/components/review-moderation")).ReviewModeration,
}));
const ReviewQueue = lazy(async () => ({
  default: (await import("../../features/reviews/components/review-queue")).ReviewQueue,
}));

export function ReviewRoute() {
  usePageTitle(
    "Reviews",
    "What workshops and drivers say about PartsWorks parts: every review with its rating, and the average rating.",
  );
  const isAdmin = useSession().data?.role === "admin";
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-8 text-3xl font-bold">Customer reviews</h1>
      <ReviewSummary align="start" />
      <ReviewList
        pageSize={12}
        paged
        // Admins moderate here, under each review.
        actions={
          isAdmin
            ? (r) => (
                <Suspense fallback={null}>
                  <ReviewModeration id={r._id} author={r.name} />
                </Suspense>
              )
            : undefined
        }
      />
      {isAdmin && (
        <Suspense fallback={null}>
          <ReviewQueue which="pending" />
          <ReviewQueue which="hidden" />
        </Suspense>
      )}
    </div>
  );
}
