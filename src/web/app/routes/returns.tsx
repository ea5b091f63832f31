import { usePageTitle, PageSection } from "../../components/page-title";
import { RestockingFeeForm } from "../../features/returns/components/restocking-fee-form";
import { ReturnWindowsForm } from "../../features/returns/components/return-windows-form";
import { FitmentReportTable, ReturnsAdmin } from "../../features/returns/components/returns-admin";

export function ReturnsRoute() {
  usePageTitle("Returns");
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="returns-heading" className="flex flex-col gap-4">
        <h1 id="returns-heading" className="text-2xl font-bold">
          Returns
        </h1>
        <p className="text-sm text-base-content/80">
          Customers ask to return parts of shipped orders. Approve (they are emailed how to send
          them back) or refuse with a message; mark a return received when the parts arrive, with
          how many of each came back and their condition: what is as new goes back on sale and the
          customer is refunded (less any restocking fee) with a credit note.
        </p>
        <ReturnsAdmin />
      </section>
      <PageSection headingId="windows-heading" title="Return windows">
        <ReturnWindowsForm />
      </PageSection>
      <PageSection headingId="fee-heading" title="Restocking fee">
        <RestockingFeeForm />
      </PageSection>
      <PageSection headingId="fitment-heading" title="Did not fit">
        <p className="text-sm text-base-content/80">
          Parts returned because they did not fit, and the vehicles customers named: a hint where a
          part's fitment data may be wrong.
        </p>
        <FitmentReportTable />
      </PageSection>
    </div>
  );
}
