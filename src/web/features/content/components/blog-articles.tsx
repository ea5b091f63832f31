import { blogArticles } from "../blogs-data";

export function BlogArticles() {
  return (
    <div className="flex flex-col gap-6">
      {blogArticles.map((a) => (
        <article
          key={a.slug}
          id={a.slug}
          aria-labelledby={`${a.slug}-q`}
          className="card border border-base-300 bg-base-100"
        >
          <div className="card-body">
            <h2 id={`${a.slug}-q`} className="card-title text-xl">
              {a.question}
            </h2>
            {a.answer.map((paragraph, i) => (
              <p key={i} className="text-base-content/80">
                {paragraph}
              </p>
            ))}
          </div>
        </article>
      ))}
    </div>
  );
}
