import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { ProductStock } from "../../features/locations/components/product-stock";

export function LocationStockRoute() {
  const { id = "" } = useParams();
  usePageTitle("Stock by location");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Stock by location</h1>
      <ProductStock productId={id} />
    </div>
  );
}
