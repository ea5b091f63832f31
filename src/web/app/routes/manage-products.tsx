import { usePageTitle } from "../../components/page-title";
import { ManageProducts } from "../../features/catalog/components/manage-products";
import { ProductAttributesForm } from "../../features/attributes/components/product-attributes-form";
import { FitmentButton } from "../../features/fitment/components/fitment-editor";
import { ProductCsvPanel } from "../../features/product-csv/components/product-csv-panel";
import { StockByLocationLink } from "../../features/locations/components/locations-page";

export function ManageProductsRoute() {
  usePageTitle("Manage All Products");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Manage All Products</h1>
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
    </div>
  );
}
