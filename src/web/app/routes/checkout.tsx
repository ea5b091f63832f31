import { usePageTitle } from "../../components/page-title";
import { useProfile } from "../../features/account/api/profile";
import { CheckoutForm } from "../../features/cart/components/checkout-form";

/** The cart's checkout, prefilled with the delivery details kept in My Info (the account's). */
export function CheckoutRoute() {
  usePageTitle("Checkout");
  const profile = useProfile();
  const saved = profile.isPending
    ? undefined
    : { phonrNo: profile.data?.phoneNo ?? "", Address: profile.data?.address ?? "" };
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Checkout</h1>
      <CheckoutForm saved={saved} />
    </div>
  );
}
