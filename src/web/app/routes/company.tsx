import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { CompanyAdmin } from "../../features/companies/components/company-admin";
import { usePriceLists } from "../../features/pricing/api/price-lists";

export function CompanyRoute() {
  const { id = "" } = useParams();
  usePageTitle("Company");
  const lists = usePriceLists({ limit: 100, offset: 0 });
  return <CompanyAdmin companyId={id} priceLists={lists.data?.items ?? []} />;
}
