import { termsLabels } from "#contract/terms";
import type { CompanyRole } from "#contract/companies";
import { paths } from "#contract/paths";
import { Link } from "../../../components/link";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatPrice } from "../../../lib/format";
import { limitText } from "./member-limits";
import { useMyCompany } from "../api/companies";
import { Invitations, Members } from "./company-admin";
import { ShipToAddresses } from "./ship-to-addresses";
import { VatCheckLine } from "./vat-check";

const roleNames: Record<CompanyRole, string> = {
  owner: "an owner",
  buyer: "a buyer",
  viewer: "a viewer",
};

/**
 * A member's own company: its terms, their role and limits, and its ship-to addresses; owners
 * manage its members and addresses.
 */
export function MyCompany() {
  const { data, error, isPending } = useMyCompany(true);
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  const company = data.company;
  if (!company) {
    return (
      <p className="rounded-box bg-base-200 p-6 text-center text-base-content/75">
        You do not belong to a company. A company's owner or the store can invite you by email.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">{company.name}</h1>
      <dl className="grid grid-cols-2 gap-2 rounded-box bg-base-200 p-4 sm:max-w-lg">
        <dt className="text-base-content/70">Your role</dt>
        <dd className="text-right" data-testid="my-company-role">
          You are {roleNames[company.role]}
        </dd>
        <dt className="text-base-content/70">Prices</dt>
        <dd className="text-right">
          {company.hasPriceList ? "The company's price list" : "List prices"}
        </dd>
        <dt className="text-base-content/70">Payment terms</dt>
        <dd className="text-right">{termsLabels[company.paymentTerms]}</dd>
        <dt className="text-base-content/70">Credit limit</dt>
        <dd className="text-right">{limitText(company.creditLimit)}</dd>
        {company.openInvoices !== null && (
          <>
            <dt className="text-base-content/70">Open invoices</dt>
            <dd className="text-right" data-testid="my-company-open-invoices">
              {formatPrice(company.openInvoices)}
            </dd>
          </>
        )}
        {company.creditLeft !== null && (
          <>
            <dt className="text-base-content/70">Credit left</dt>
            <dd className="text-right" data-testid="my-company-credit-left">
              {formatPrice(company.creditLeft)}
            </dd>
          </>
        )}
        {company.taxId && (
          <>
            <dt className="text-base-content/70">Tax / VAT id</dt>
            <dd className="text-right">{company.taxId}</dd>
          </>
        )}
        <dt className="text-base-content/70">Your per-order limit</dt>
        <dd className="text-right">{limitText(company.orderLimit)}</dd>
        <dt className="text-base-content/70">Your monthly limit</dt>
        <dd className="text-right">{limitText(company.monthlyLimit)}</dd>
      </dl>
      {company.vatCheck && <VatCheckLine check={company.vatCheck} />}
      {company.role === "owner" && (
        <>
          <p>
            <Link to={paths.approvals} className="btn btn-outline btn-sm">
              Approvals: orders over a spending limit
            </Link>
          </p>
          <Members companyId={company.id} />
          <Invitations companyId={company.id} />
        </>
      )}
      <ShipToAddresses companyId={company.id} canManage={company.role === "owner"} />
    </div>
  );
}
