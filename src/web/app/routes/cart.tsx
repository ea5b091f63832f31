import { usePageTitle } from "../../components/page-title";
import { useAddresses } from "../../features/account/api/addresses";
import { useCartCount, useCartOwner } from "../../features/cart/api/cart";
import { CartView } from "../../features/cart/components/cart-view";
import { RequestQuote } from "../../features/quotes/components/request-quote";

export function CartRoute() {
  usePageTitle("Your cart");
  const owner = useCartOwner();
  const count = useCartCount();
  // A customer's estimate starts at their default address (their checkout's first choice).
  const home = useAddresses(owner === "customer").data?.find((a) => a.isDefault);
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Your cart</h1>
      <CartView home={home} />
      {/* A signed-in customer may ask for a quote for the whole cart (docs/quotes.md). */}
      {owner === "customer" && (count ?? 0) > 0 && <RequestQuote />}
    </div>
  );
}
