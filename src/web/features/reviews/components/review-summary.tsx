import { useReviewSummary } from "../api/get-review-summary";
import { RatingStars } from "./rating-stars";

/** The average rating and the number of reviews, e.g. "4.5 out of 5 · 12 reviews". */
export function ReviewSummary({ align = "center" }: { align?: "center" | "start" }) {
  const { data } = useReviewSummary();
  // With no reviews an average of 0 would read as a bad rating, and while loading or on an error
  // the review list below already says what is going on: show nothing rather than guess.
  if (!data || data.count === 0) return null;
  const reviews = `${data.count.toLocaleString("en-US")} ${data.count === 1 ? "review" : "reviews"}`;
  return (
    <p
      className={`mb-8 flex flex-wrap items-center gap-3 text-lg ${align === "center" ? "justify-center" : "justify-start"}`}
      data-testid="review-summary"
    >
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
