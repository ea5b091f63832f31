/** Holds the product page's place (picture, name, facts, ordering) while the product loads. */
export function ProductDetailsSkeleton() {
  return (
    <div
      className="grid gap-8 md:grid-cols-2"
      aria-hidden="true"
      data-testid="product-details-skeleton"
    >
      <div className="aspect-[4/3] rounded-box border border-base-300 bg-base-200" />
      <div className="flex flex-col gap-4">
        <div className="h-9 w-3/4 rounded bg-base-200" />
        <div className="h-18 rounded bg-base-200" />
        <div className="h-36 rounded-box bg-base-200" />
        <div className="h-12 w-1/2 rounded-field bg-base-200" />
      </div>
    </div>
  );
}
