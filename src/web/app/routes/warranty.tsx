import { usePageTitle } from "../../components/page-title";
import { ClaimsList } from "../../features/warranty/components/claims-list";
import { useSession } from "../../lib/session";

/** Warranty claims: the admin's queue, or a customer's (and their company's) claims. */
export function WarrantyRoute() {
  usePageTitle("Warranty claims");
  const store = useSession().data?.role === "admin";
  return (
    <section aria-labelledby="warranty-heading" className="flex flex-col gap-4">
      <h1 id="warranty-heading" className="text-2xl font-bold">
        Warranty claims
      </h1>
      <p className="text-sm text-base-content/80">
        {store
          ? "Parts that failed in use, claimed within their warranty. Ask the claimant for information or reject with a reason; every answer is emailed to them."
          : "Parts that failed in use, claimed from your orders' pages within their warranty. Answer our questions here or on the order."}
      </p>
      <ClaimsList store={store} />
    </section>
  );
}
