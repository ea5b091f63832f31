import { businessSummary } from "../landing-data";

export function BusinessSummary() {
  return (
    <section aria-labelledby="summary-heading" className="bg-base-200">
      <div className="mx-auto max-w-6xl px-4 py-14 text-center">
        <h2 id="summary-heading" className="text-3xl font-bold">
          Millions of parts on the road, trusted worldwide
        </h2>
        <p className="mt-2 text-base-content/70">What our customers have built with us so far.</p>
        <dl className="mt-8 grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="business-summary">
          {businessSummary.map((f) => (
            <div key={f.label} className="rounded-box bg-base-100 p-6 shadow-sm">
              <dt className="text-base-content/70">{f.label}</dt>
              <dd className="text-4xl font-extrabold text-primary">{f.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
