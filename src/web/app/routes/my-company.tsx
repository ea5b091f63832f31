import { usePageTitle } from "../../components/page-title";
import { MyCompany } from "../../features/companies/components/my-company";

export function MyCompanyRoute() {
  usePageTitle("My company");
  return <MyCompany />;
}
