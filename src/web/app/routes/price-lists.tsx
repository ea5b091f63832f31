import { usePageTitle } from "../../components/page-title";
import { PriceListsAdmin } from "../../features/pricing/components/price-lists-admin";

export function PriceListsRoute() {
  usePageTitle("Price lists");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Price lists</h1>
      <PriceListsAdmin />
    </div>
  );
}
