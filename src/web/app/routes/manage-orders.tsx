import { HoldsTable } from "../../features/orders/components/holds-table";
import { OrderLimitsForm } from "../../features/orders/components/order-limits-form";
import { OrdersAdminTable } from "../../features/orders/components/orders-admin-table";
import { OrdersOverviewPanel } from "../../features/orders/components/orders-overview";
import { RefundsDueTable } from "../../features/payments/components/refunds-due-table";
import { PageSection, usePageTitle } from "../../components/page-title";

export function ManageOrdersRoute() {
  usePageTitle("Manage All Orders");
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Manage All Orders</h1>
      <OrdersOverviewPanel />
      <RefundsDueTable />
      <OrdersAdminTable />
      <HoldsTable />
      <PageSection headingId="limits-heading" title="Order limits">
        <OrderLimitsForm />
      </PageSection>
    </div>
  );
}
