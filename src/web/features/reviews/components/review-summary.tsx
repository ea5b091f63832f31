import { formatCount } from "../../../lib/format";
import { useReviewSummary } from "../api/get-review-summary";
import { RatingStars } from "./rating-stars";

/** The average rating and the number of reviews, e.g. "4.5 out of 5 · 12 reviews". */
export function ReviewSummary({ align = "center" }: { align?: "center" | "start" }) {
  const { data } = useReviewSummary();
  const className = `mb-8 flex flex-wrap items-center gap-3 text-lg ${align === "center" ? "justify-center" : "justify-start"}`;
  // While loading (or on an error, which the review list below reports), an empty line of the
  // same height keeps the reviews from moving. With no reviews an average of 0 would read as a
  // bad rating: show nothing rather than guess.
  if (!data) return <p className={`${className} h-7`} aria-hidden="true" />;
  if (data.count === 0) return null;
  const reviews = `${formatCount(data.count)} ${data.count === 1 ? "review" : "reviews"}`;
  return (
    <p className={className} data-testid="review-summary">
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
