import { usePageTitle } from "../../components/page-title";
import { CheckoutForm } from "../../features/cart/components/checkout-form";

export function CheckoutRoute() {
  usePageTitle("Checkout");
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Checkout</h1>
      <CheckoutForm />
    </div>
  );
}
