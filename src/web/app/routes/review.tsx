import { HiddenReviews } from "../../features/reviews/components/hidden-reviews";
import { ReviewList } from "../../features/reviews/components/review-list";
import { ReviewSummary } from "../../features/reviews/components/review-summary";
import { usePageTitle } from "../../components/page-title";

export function ReviewRoute() {
  usePageTitle(
    "Reviews",
    "What workshops and drivers say about PartsWorks parts: every review with its rating, and the average rating.",
  );
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-8 text-3xl font-bold">Customer reviews</h1>
      <ReviewSummary align="start" />
      <ReviewList pageSize={12} paged />
      <HiddenReviews />
    </div>
  );
}
