import { useEffect, useRef, useState } from "react";
import { whenVisitorActs } from "../../../lib/when-visitor-acts";
import { LANDING_REVIEWS_PAGE_SIZE } from "../api/get-reviews";
import type { LandingReviews } from "./landing-reviews";
import { ReviewListSkeleton, ReviewSummarySkeleton } from "./review-skeletons";

/** Once loaded, later visits of the page render it at once (Back keeps its scroll position). */
let loadedReviews: typeof LandingReviews | undefined;

/**
 * The reviews at the foot of the landing page. Their data is asked for as the page opens (the
 * router's prefetch), their code when the visitor first moves, touches, types or scrolls, or when
 * they come on screen: a phone that opens the page and leaves it downloads none of it. Until then
 * the skeletons they show while loading hold their place (pre-rendered, so nothing shifts).
 */
export function LazyLandingReviews() {
  const [Loaded, setLoaded] = useState<typeof LandingReviews | undefined>(() => loadedReviews);
  const placeholder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (Loaded) return;
    return whenVisitorActs(() => {
      void import("./landing-reviews").then((m) => {
        loadedReviews = m.LandingReviews;
        setLoaded(() => m.LandingReviews);
      });
    }, placeholder.current);
  }, [Loaded]);
  if (Loaded) return <Loaded />;
  return (
    <div ref={placeholder}>
      <ReviewSummarySkeleton />
      <ReviewListSkeleton count={LANDING_REVIEWS_PAGE_SIZE} />
    </div>
  );
}
