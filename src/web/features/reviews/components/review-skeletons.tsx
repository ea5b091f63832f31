// What the reviews show while they load: also what the landing page shows until their code is
// there (lazy-landing-reviews.tsx), so nothing moves when they arrive.

export const reviewSummaryClass = (align: "center" | "start") =>
  `mb-8 flex flex-wrap items-center gap-3 text-lg ${align === "center" ? "justify-center" : "justify-start"}`;

/** An empty line of the summary's height. */
export function ReviewSummarySkeleton({ align = "center" }: { align?: "center" | "start" }) {
  return <p className={`${reviewSummaryClass(align)} h-7`} aria-hidden="true" />;
}

/** Review-card-sized placeholders, so the reviews take their place without moving the page. */
export function ReviewListSkeleton({ count }: { count: number }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      <span role="status" className="sr-only">
        Loading reviews
      </span>
      {Array.from({ length: count }, (_, i) => (
        <div
          key={i}
          className="card h-42 border border-base-300 bg-base-100 shadow-sm"
          aria-hidden="true"
        />
      ))}
    </div>
  );
}
