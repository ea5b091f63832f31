import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { useSession } from "../../lib/session";
import { QuoteView } from "../../features/quotes/components/quote-view";

export function QuoteRoute() {
  const { id = "" } = useParams();
  usePageTitle("Quote");
  const { data: user } = useSession();
  return <QuoteView key={id} id={id} admin={user?.role === "admin"} />;
}
