export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2">
      <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Centered spinner that holds the page's place while it loads. */
export function PageSpinner() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner />
    </div>
  );
}
