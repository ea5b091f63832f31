import { PortfolioView } from "../../features/content/components/portfolio-view";
import { usePageTitle } from "../../components/page-title";

export function PortfolioRoute() {
  usePageTitle(
    "My Portfolio",
    "The portfolio of the developer who built the PartsWorks store: skills, projects and how to get in touch.",
  );
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <PortfolioView />
    </div>
  );
}
