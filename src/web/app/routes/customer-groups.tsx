import { TitledPage } from "../../components/page-title";
import { CustomerGroupsAdmin } from "../../features/pricing/components/customer-groups-admin";

export function CustomerGroupsRoute() {
  return (
    <TitledPage title="Customer groups">
      <CustomerGroupsAdmin />
    </TitledPage>
  );
}
