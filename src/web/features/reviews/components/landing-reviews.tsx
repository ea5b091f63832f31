import { LANDING_REVIEWS_PAGE_SIZE } from "../api/get-reviews";
import { ReviewList } from "./review-list";
import { ReviewSummary } from "./review-summary";

/** The landing page's reviews: the average, and the newest few (lazy-landing-reviews.tsx). */
export function LandingReviews() {
  return (
    <>
      <ReviewSummary />
      <ReviewList pageSize={LANDING_REVIEWS_PAGE_SIZE} />
    </>
  );
}
