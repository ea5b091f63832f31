import { usePageTitle } from "../../components/page-title";
import { InvoicesAdmin } from "../../features/invoices/components/invoices-admin";

export function InvoicesRoute() {
  usePageTitle("Invoices");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Invoices on account</h1>
      <p className="text-sm text-base-content/80">
        Orders of companies on net terms, invoiced when placed. Record a bank transfer against an
        invoice when it arrives.
      </p>
      <InvoicesAdmin />
    </div>
  );
}
