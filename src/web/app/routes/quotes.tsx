import { TitledPage } from "../../components/page-title";
import { useSession } from "../../lib/session";
import { QuotesTable } from "../../features/quotes/components/quotes-table";

/** Quotes (docs/quotes.md): a customer's (their company's), or every request for an admin. */
export function QuotesRoute() {
  const { data: user } = useSession();
  const admin = user?.role === "admin";
  return (
    <TitledPage title="Quotes">
      <p className="text-sm text-base-content/75">
        {admin
          ? "Requests for quote from customers' carts: open one to price its lines, set how long it is valid and send it."
          : "Your requests for quote (your company's, if you buy for one). Ask for one from your cart; once we price it, accept it to order at those prices."}
      </p>
      <QuotesTable admin={admin} />
    </TitledPage>
  );
}
