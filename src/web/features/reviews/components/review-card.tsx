import type { Review } from "#contract/reviews";
import { formatDate } from "../../../lib/format";
import { RatingStars } from "./rating-stars";

export function ReviewCard({ review }: { review: Review }) {
  return (
    <article className="card h-full border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-3 p-5">
        <RatingStars value={review.ratings} />
        {/* Plain text: React escapes it, so no HTML in a review is ever rendered. */}
        <p className="whitespace-pre-line break-words">{review.descreption}</p>
        <footer className="mt-auto text-sm text-base-content/70">
          <span className="font-semibold text-base-content">{review.name}</span> ·{" "}
          <time dateTime={review.createdAt}>{formatDate(review.createdAt)}</time>
        </footer>
      </div>
    </article>
  );
}
