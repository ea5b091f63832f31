import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Cart } from "#contract/cart";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/**
 * A customer's discount code on their cart (PUT or DELETE /api/cart/discount-code): the cart
 * answered is shown at once, and every quote of it (the delivery estimate, the checkout) asks
 * again.
 */
export function useCartDiscountCode() {
  const queryClient = useQueryClient();
  const show = async (cart: Cart) => {
    await queryClient.cancelQueries({ queryKey: queryKeys.cart.mine });
    queryClient.setQueryData(queryKeys.cart.mine, cart);
    void queryClient.invalidateQueries({ queryKey: ["cart", "quote"] });
  };
  const apply = useMutation({
    mutationFn: (code: string) => apiSend<Cart>("PUT", "/cart/discount-code", { code }),
    onSuccess: show,
  });
  const remove = useMutation({
    mutationFn: () => apiSend<Cart>("DELETE", "/cart/discount-code"),
    onSuccess: show,
  });
  return { apply, remove };
}
