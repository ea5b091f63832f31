import { ReviewList } from "../../features/reviews/components/review-list";
import { ReviewModeration } from "../../features/reviews/components/review-moderation";
import { ReviewQueue } from "../../features/reviews/components/review-queue";
import { ReviewSummary } from "../../features/reviews/components/review-summary";
import { usePageTitle } from "../../components/page-title";
import { useSession } from "../../lib/session";

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
        actions={isAdmin ? (r) => <ReviewModeration id={r._id} author={r.name} /> : undefined}
      />
      <ReviewQueue which="pending" />
      <ReviewQueue which="hidden" />
    </div>
  );
}
