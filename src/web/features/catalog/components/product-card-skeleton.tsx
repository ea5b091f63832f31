/**
 * Holds a product card's place while the products load, at about its size, so the cards take
 * their place without pushing the rest of the page down (layout shift).
 */
export function ProductCardSkeleton() {
  return (
    <div
      className="card border border-base-300 bg-base-100 shadow-sm max-sm:flex-row"
      aria-hidden="true"
    >
      {/* On a phone the picture sits beside the facts, as on the card. */}
      <div className="aspect-[4/3] bg-base-200 max-sm:aspect-auto max-sm:w-24 max-sm:shrink-0" />
      <div className="card-body gap-2 p-5 max-sm:min-w-0 max-sm:p-4">
        {/* Name (text-lg), a three-line description (two on a phone), four figures, the button. */}
        <div className="my-0.5 h-6 w-3/4 rounded bg-base-200" />
        <div className="h-15 rounded bg-base-200 max-sm:h-10" />
        <div className="mt-1 h-23" />
        <div className="mt-2 h-10 rounded-field bg-base-200" />
      </div>
    </div>
  );
}

/** A grid of card placeholders, announced once as loading. */
export function ProductGridSkeleton({ count, label }: { count: number; label: string }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      <span role="status" className="sr-only">
        {label}
      </span>
      {Array.from({ length: count }, (_, i) => (
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  );
}
