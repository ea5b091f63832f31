import { NotFound } from "../../features/content/components/not-found";
import { usePageTitle } from "../../components/page-title";

export function NotFoundRoute() {
  usePageTitle("Page not found");
  return <NotFound />;
}
