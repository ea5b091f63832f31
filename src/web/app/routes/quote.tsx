import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { useSession } from "../../lib/session";
import { QuoteView } from "../../features/quotes/components/quote-view";
import { useAddressBook } from "../address-book";

export function QuoteRoute() {
  const { id = "" } = useParams();
  usePageTitle("Quote");
  const { data: user } = useSession();
  const admin = user?.role === "admin";
  const book = useAddressBook(Boolean(user) && !admin);
  return <QuoteView key={id} id={id} admin={admin} book={book} />;
}
