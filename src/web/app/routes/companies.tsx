import { TitledPage } from "../../components/page-title";
import { CompaniesAdmin } from "../../features/companies/components/companies-admin";
import { usePriceLists } from "../../features/pricing/api/price-lists";
import { useCustomerGroups } from "../../features/pricing/api/customer-groups";

export function CompaniesRoute() {
  const lists = usePriceLists({ limit: 100, offset: 0 });
  const groups = useCustomerGroups();
  return (
    <TitledPage title="Companies">
      <CompaniesAdmin priceLists={lists.data?.items ?? []} groups={groups.data} />
    </TitledPage>
  );
}
