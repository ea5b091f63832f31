import { TitledPage } from "../../components/page-title";
import { ManageProducts } from "../../features/catalog/components/manage-products";
import { ProductAttributesForm } from "../../features/attributes/components/product-attributes-form";
import { FitmentButton } from "../../features/fitment/components/fitment-editor";
import { ProductCsvPanel } from "../../features/product-csv/components/product-csv-panel";
import { StockByLocationLink } from "../../features/locations/components/locations-page";

export function ManageProductsRoute() {
  return (
    <TitledPage title="Manage All Products">
      <ManageProducts
        rowActions={(p) => (
          <>
            <FitmentButton product={p} />
            <StockByLocationLink productId={p._id} name={p.name} />
          </>
        )}
        editExtras={(p) => <ProductAttributesForm product={p} />}
      />
      <ProductCsvPanel />
    </TitledPage>
  );
}
