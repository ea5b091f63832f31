import { useParams } from "react-router";
import { TitledPage } from "../../components/page-title";
import { ProductStock } from "../../features/locations/components/product-stock";

export function LocationStockRoute() {
  const { id = "" } = useParams();
  return (
    <TitledPage title="Stock by location">
      <ProductStock productId={id} />
    </TitledPage>
  );
}
