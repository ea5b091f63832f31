import { seesCompanyInvoices } from "#contract/companies";
import { usePageTitle } from "../../components/page-title";
import { useMyCompany } from "../../features/companies/api/companies";
import { MyCompany } from "../../features/companies/components/my-company";
import { CompanyInvoices } from "../../features/invoices/components/invoices-admin";

/** A member's company; its owners and viewers also see its invoices on account. */
export function MyCompanyRoute() {
  usePageTitle("My company");
  const role = useMyCompany(true).data?.company?.role;
  return (
    <div className="flex flex-col gap-8">
      <MyCompany />
      {seesCompanyInvoices(role) && (
        <section className="flex flex-col gap-3" aria-labelledby="company-invoices">
          <h2 id="company-invoices" className="text-xl font-bold">
            Invoices on account
          </h2>
          <CompanyInvoices />
        </section>
      )}
    </div>
  );
}
