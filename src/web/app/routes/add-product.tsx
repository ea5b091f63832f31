import { TitledPage } from "../../components/page-title";
import { AddProductForm } from "../../features/catalog/components/add-product-form";

export function AddProductRoute() {
  return (
    <TitledPage title="Add Product">
      <p className="text-base-content/70">
        Every field is required. The picture can be a link or an image you upload.
      </p>
      <AddProductForm />
    </TitledPage>
  );
}
