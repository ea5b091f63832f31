import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Cart, CheckoutInput } from "#contract/cart";
import type { Order } from "#contract/orders";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { useCartOwner, useServerCart, useVisitorItems } from "./cart";

// The cart page's and the checkout's side of the cart (api/cart.ts keeps what the navbar and
// the product cards need, which every page loads).

/** A cart with nothing in it (a signed-out visitor's before they add a part; tests build on it). */
export const EMPTY_CART: Cart = {
  lines: [],
  count: 0,
  subtotal: 0,
  discount: null,
  discountProblem: null,
  coreDeposits: 0,
  currency: "",
  canCheckout: false,
  destination: null,
  shippingOptions: [],
  shippingMethodId: null,
  shipping: 0,
  tax: 0,
  taxRate: null,
  taxName: null,
  taxNote: null,
  total: 0,
  deliveryProblem: null,
};

/** The cart, priced by the server now, whoever it belongs to. */
export function useCart() {
  const owner = useCartOwner();
  const items = useVisitorItems();
  const server = useServerCart(owner === "customer");
  const visitor = useQuery({
    queryKey: queryKeys.cart.visitor(items),
    queryFn: () => apiSend<Cart>("POST", "/cart/quote", { items }),
    enabled: owner === "visitor" && items.length > 0,
    placeholderData: (previous) => previous,
  });
  if (owner === "customer") {
    return { owner, data: server.data, isPending: server.isPending, error: server.error };
  }
  if (owner === "visitor" && items.length === 0) {
    return { owner, data: EMPTY_CART, isPending: false, error: null };
  }
  if (owner === "visitor") {
    return { owner, data: visitor.data, isPending: visitor.isPending, error: visitor.error };
  }
  return { owner, data: undefined, isPending: owner === "unknown", error: null };
}

/** Orders the whole cart; the cart is emptied and the stock shown everywhere changes. */
export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CheckoutInput) =>
      apiSend<{ success: true; order: Order }>("POST", "/checkout", input),
    // Not awaited: the page moves on to the order at once, and refetches in the background.
    onSettled: () => {
      for (const queryKey of [
        queryKeys.cart.all,
        queryKeys.orders.all,
        queryKeys.products.all,
        queryKeys.profile,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
