import { clients } from "../landing-data";

export function Clients() {
  return (
    <section aria-labelledby="clients-heading" className="bg-base-200">
      <div className="mx-auto max-w-6xl px-4 py-14">
        <h2 id="clients-heading" className="text-center text-3xl font-bold">
          Our clients
        </h2>
        <ul className="mt-8 grid grid-cols-2 gap-6 sm:grid-cols-3 lg:grid-cols-6">
          {clients.map((c) => (
            <li
              key={c.name}
              className="flex items-center justify-center rounded-box bg-base-100 p-4"
            >
              <img src={c.image} alt={c.name} width="240" height="96" loading="lazy" />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
