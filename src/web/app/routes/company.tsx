import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { CompanyAdmin } from "../../features/companies/components/company-admin";
import { usePriceLists } from "../../features/pricing/api/price-lists";
import { useCustomerGroups } from "../../features/pricing/api/customer-groups";

export function CompanyRoute() {
  const { id = "" } = useParams();
  usePageTitle("Company");
  const lists = usePriceLists({ limit: 100, offset: 0 });
  const groups = useCustomerGroups();
  return <CompanyAdmin companyId={id} priceLists={lists.data?.items ?? []} groups={groups.data} />;
}
