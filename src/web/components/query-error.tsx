/** Shown where data could not be loaded. */
export function QueryError({ error }: { error: Error }) {
  return (
    <div role="alert" className="alert alert-error alert-soft">
      <span>Could not load this right now: {error.message}</span>
    </div>
  );
}
