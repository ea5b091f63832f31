import { cardCartAction } from "../../features/cart/components/add-to-cart-button";
import { ProductBrowser } from "../../features/catalog/components/product-browser";
import { usePageTitle } from "../../components/page-title";

export function AllProductsRoute() {
  usePageTitle(
    "All products",
    "Every PartsWorks spare part with its price, minimum order, stock and warranty: search by name or description and sort by price, name or newest.",
  );
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">All products</h1>
      <ProductBrowser cardAction={cardCartAction} />
    </div>
  );
}
