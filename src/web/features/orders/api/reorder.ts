import type { ReorderResult } from "#contract/reorder";
import { apiSend } from "../../../lib/api-client";
import { useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";
import { orderPath } from "../../../lib/order-reads";

/** "Order again": the order's parts into the cart at today's prices. */
export function useReorder() {
  return useReplacingMutation(
    queryKeys.cart.mine,
    (orderId: string) => apiSend<ReorderResult>("POST", orderPath(orderId, "reorder")),
    (result) => result.cart,
  );
}
