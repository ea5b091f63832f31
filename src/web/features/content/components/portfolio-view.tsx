import type { ReactNode } from "react";
import { portfolio } from "../portfolio-data";

/** A titled part of the page, named by its heading (`id`-heading). */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="mb-4 text-2xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function PortfolioView() {
  return (
    <div className="flex flex-col gap-10">
      <header>
        <h1 className="text-4xl font-bold">{portfolio.name}</h1>
        <p className="text-lg font-medium text-secondary">{portfolio.title}</p>
        <p className="mt-4 max-w-3xl text-base-content/80">{portfolio.summary}</p>
        <p className="mt-2 text-sm text-base-content/70">
          {portfolio.location} ·{" "}
          <a className="link" href={`mailto:${portfolio.email}`}>
            {portfolio.email}
          </a>
        </p>
      </header>

      <Section id="skills" title="Skills">
        <div className="grid gap-4 sm:grid-cols-2">
          {portfolio.skills.map((g) => (
            <div key={g.group} className="rounded-box bg-base-200 p-4">
              <h3 className="font-semibold">{g.group}</h3>
              <ul className="mt-2 flex flex-wrap gap-2">
                {g.items.map((s) => (
                  <li key={s} className="badge badge-outline">
                    {s}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </Section>

      <Section id="projects" title="Projects">
        <ul className="grid gap-4 md:grid-cols-3">
          {portfolio.projects.map((p) => (
            <li key={p.name} className="card border border-base-300">
              <div className="card-body p-5">
                <h3 className="card-title text-lg">{p.name}</h3>
                <p className="text-sm text-base-content/80">{p.description}</p>
                <p className="text-xs text-base-content/70">{p.tech.join(" · ")}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="education" title="Education">
        <ul className="flex flex-col gap-2">
          {portfolio.education.map((e) => (
            <li key={e.school}>
              <span className="font-semibold">{e.degree}</span>, {e.school}{" "}
              <span className="text-base-content/70">({e.years})</span>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
