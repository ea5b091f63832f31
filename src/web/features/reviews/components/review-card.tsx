import { VERIFIED_BUYER_LABEL, type Review } from "#contract/reviews";
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
          {review.verifiedBuyer && (
            <>
              {" "}
              <span
                className="badge badge-success badge-soft badge-sm ml-1 align-middle"
                title="The author had a paid order when they wrote this review"
              >
                <svg viewBox="0 0 20 20" className="h-3 w-3" aria-hidden="true">
                  <path d="M4 10.5l4 4 8-9" fill="none" stroke="currentColor" strokeWidth="2.5" />
                </svg>
                {VERIFIED_BUYER_LABEL}
              </span>
            </>
          )}
        </footer>
      </div>
    </article>
  );
}
