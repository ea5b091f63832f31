import { usePageTitle } from "../../components/page-title";
import { CartView } from "../../features/cart/components/cart-view";

export function CartRoute() {
  usePageTitle("Your cart");
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Your cart</h1>
      <CartView />
    </div>
  );
}
