import { usePageTitle } from "../../components/page-title";
import { AddProductForm } from "../../features/catalog/components/add-product-form";

export function AddProductRoute() {
  usePageTitle("Add Product");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Add Product</h1>
      <p className="text-base-content/70">
        Every field is required. The picture can be a link or an image you upload.
      </p>
      <AddProductForm />
    </div>
  );
}
