import { TitledPage } from "../../components/page-title";
import { PriceListsAdmin } from "../../features/pricing/components/price-lists-admin";

export function PriceListsRoute() {
  return (
    <TitledPage title="Price lists">
      <PriceListsAdmin />
    </TitledPage>
  );
}
