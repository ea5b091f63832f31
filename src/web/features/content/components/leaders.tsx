import { leaders } from "../landing-data";

export function Leaders() {
  return (
    <section aria-labelledby="leaders-heading" className="mx-auto max-w-6xl px-4 py-14">
      <h2 id="leaders-heading" className="text-center text-3xl font-bold">
        Our leaders
      </h2>
      <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {leaders.map((l) => (
          <li key={l.name} className="card border border-base-300 bg-base-100 text-center">
            <div className="card-body items-center p-6">
              <img
                src={l.image}
                alt={`Portrait of ${l.name}`}
                width="96"
                height="96"
                loading="lazy"
                className="h-24 w-24 rounded-full bg-base-200"
              />
              <h3 className="mt-2 font-semibold">{l.name}</h3>
              <p className="text-sm font-medium text-secondary">{l.role}</p>
              <p className="text-sm text-base-content/70">{l.bio}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
