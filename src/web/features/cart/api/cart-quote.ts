import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Cart, CartQuoteInput } from "#contract/cart";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/**
 * The cart with shipping and tax (POST /api/cart/quote): a visitor's lines for a country and
 * postal code, or the customer's own cart for one of their saved addresses.
 */
export function useCartQuote(input: CartQuoteInput | null) {
  return useQuery({
    queryKey: queryKeys.cart.quote(input ?? {}),
    queryFn: () => apiSend<Cart>("POST", "/cart/quote", input),
    enabled: input !== null,
    placeholderData: keepPreviousData,
  });
}
