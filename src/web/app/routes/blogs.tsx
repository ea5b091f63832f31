import { BlogArticles } from "../../features/content/components/blog-articles";
import { usePageTitle } from "../../components/page-title";

export function BlogsRoute() {
  usePageTitle(
    "Blogs",
    "Answers to the questions our customers ask: choosing parts, OE numbers, warranty, minimum orders, delivery and card payment.",
  );
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="mb-2 text-3xl font-bold">Blogs</h1>
      <p className="mb-8 text-base-content/70">
        Answers to the questions our customers ask us most.
      </p>
      <BlogArticles />
    </div>
  );
}
