import { usePageTitle } from "../../components/page-title";
import { CompaniesAdmin } from "../../features/companies/components/companies-admin";
import { usePriceLists } from "../../features/pricing/api/price-lists";
import { useCustomerGroups } from "../../features/pricing/api/customer-groups";

export function CompaniesRoute() {
  usePageTitle("Companies");
  const lists = usePriceLists({ limit: 100, offset: 0 });
  const groups = useCustomerGroups();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Companies</h1>
      <CompaniesAdmin priceLists={lists.data?.items ?? []} groups={groups.data} />
    </div>
  );
}
