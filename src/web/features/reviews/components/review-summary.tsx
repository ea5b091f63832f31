import { pluralCount } from "#contract/count";
import { useReviewSummary } from "../api/get-review-summary";
import { RatingStars } from "./rating-stars";
import { ReviewSummarySkeleton, reviewSummaryClass } from "./review-skeletons";

/** The average rating and the number of reviews, e.g. "4.5 out of 5 · 12 reviews". */
export function ReviewSummary({ align = "center" }: { align?: "center" | "start" }) {
  const { data } = useReviewSummary();
  // While loading (or on an error, which the review list below reports), an empty line of the
  // same height keeps the reviews from moving. With no reviews an average of 0 would read as a
  // bad rating: show nothing rather than guess.
  if (!data) return <ReviewSummarySkeleton align={align} />;
  if (data.count === 0) return null;
  const reviews = pluralCount(data.count, "review");
  return (
    <p className={reviewSummaryClass(align)} data-testid="review-summary">
      {/* The stars are rounded to whole ones; the text says the exact average for everyone. */}
      <span aria-hidden="true">
        <RatingStars value={Math.round(data.average)} />
      </span>
      <span>
        <span className="font-semibold">{data.average.toFixed(1)} out of 5</span> · {reviews}
      </span>
    </p>
  );
}
