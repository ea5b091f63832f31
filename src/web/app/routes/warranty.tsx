import { lazy, Suspense } from "react";
import { usePageTitle, PageSection } from "../../components/page-title";
import { PageSpinner } from "../../components/spinner";
import { ClaimsList } from "../../features/warranty/components/claims-list";
import { DeadlineSettingsSection } from "../../features/warranty/components/deadline-settings";
import { FailureCodes } from "../../features/warranty/components/failure-codes";
import { LotImportForm } from "../../features/shipments/components/lot-import";
import { useSession } from "../../lib/session";

// The report's charts load only when an admin's page shows them.
const WarrantyReport = lazy(() =>
  import("../../features/warranty/components/warranty-report").then((m) => ({
    default: m.WarrantyReport,
  })),
);

/** Warranty claims: the admin's queue, or a customer's (and their company's) claims. */
export function WarrantyRoute() {
  usePageTitle("Warranty claims");
  const store = useSession().data?.role === "admin";
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="warranty-heading" className="flex flex-col gap-4">
        <h1 id="warranty-heading" className="text-2xl font-bold">
          Warranty claims
        </h1>
        <p className="text-sm text-base-content/80">
          {store
            ? "Parts that failed in use, claimed within their warranty. Ask the claimant for information or for the part back, record what the inspection found, then approve a replacement or a refund, or reject with a reason; every answer is emailed to them."
            : "Parts that failed in use, claimed from your orders' pages within their warranty. Answer our questions here or on the order."}
        </p>
        <ClaimsList store={store} />
      </section>
      {store && (
        <PageSection headingId="failure-codes-heading" title="Failure codes">
          <p className="text-sm text-base-content/80">
            What an inspection found wrong, chosen from this list and shown to the claimant. A code
            is retired rather than removed, so older claims keep their words.
          </p>
          <FailureCodes />
        </PageSection>
      )}
      {store && <DeadlineSettingsSection />}
      {store && (
        <PageSection headingId="warranty-report-heading" title="Report">
          <p className="text-sm text-base-content/80">
            Claims per 1,000 units sold, per part, by failure code, by month of sale and by
            production lot, and what approved claims cost; of the orders placed in the months
            chosen.
          </p>
          <Suspense fallback={<PageSpinner />}>
            <WarrantyReport />
          </Suspense>
        </PageSection>
      )}
      {store && (
        <PageSection headingId="lots-heading" title="Production lots">
          <LotImportForm />
        </PageSection>
      )}
    </div>
  );
}
