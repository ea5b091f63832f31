import type { Cart } from "#contract/cart";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/**
 * After a quote is accepted its parts may still be in the cart at list price, inviting a second
 * order: which of them are there, and taking them out when the buyer chooses to.
 */
export async function quotedInCart(productIds: string[]): Promise<string[]> {
  const cart = await apiGet<Cart>("/cart");
  return cart.lines.map((l) => l.productId).filter((id) => productIds.includes(id));
}

export function useRemoveQuotedFromCart() {
  return useInvalidatingMutation(
    queryKeys.cart.all,
    async (productIds: string[]) => {
      for (const id of productIds) {
        await apiSend<Cart>("DELETE", `/cart/items/${encodeURIComponent(id)}`);
      }
    },
    { alsoOnError: true },
  );
}
