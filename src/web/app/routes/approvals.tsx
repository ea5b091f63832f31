import { usePageTitle, PageSection } from "../../components/page-title";
import { PageSpinner } from "../../components/spinner";
import { useSession } from "../../lib/session";
import { ApprovalSettingsForm } from "../../features/approvals/components/approval-settings-form";
import { ApprovalsTable } from "../../features/approvals/components/approvals-table";
import { useMyCompany } from "../../features/companies/api/companies";

/**
 * A company owner's orders awaiting approval; an admin sees every company's, read only, and sets
 * the approval window and the owners' reminder below them.
 */
export function ApprovalsRoute() {
  usePageTitle("Approvals");
  const { data: user } = useSession();
  const admin = user?.role === "admin";
  const mine = useMyCompany(!admin);
  if (!admin && mine.isPending) return <PageSpinner />;
  const owner = mine.data?.company?.role === "owner";
  const list = (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Approvals</h1>
      <p className="text-sm text-base-content/75">
        {admin
          ? "Company buyers' orders over a spending limit, waiting for an owner of their company. Only the company's owners decide them."
          : "Your buyers' orders over their spending limits. Approved, the buyer can pay; declined, the order is cancelled. If nobody decides before the date shown, the order is cancelled."}
      </p>
      {admin || owner ? (
        <ApprovalsTable readOnly={admin} />
      ) : (
        <p className="rounded-box bg-base-200 p-6 text-center text-base-content/75">
          Only the owners of a company approve its orders.
        </p>
      )}
    </div>
  );
  if (!admin) return list;
  // Admins also choose how long an order waits, and when its owners are reminded.
  return (
    <div className="flex flex-col gap-8">
      {list}
      <PageSection headingId="approval-settings-heading" title="Approval window">
        <ApprovalSettingsForm />
      </PageSection>
    </div>
  );
}
