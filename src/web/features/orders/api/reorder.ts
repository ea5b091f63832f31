import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReorderResult } from "#contract/reorder";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** "Order again": the order's parts into the cart at today's prices. */
export function useReorder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) =>
      apiSend<ReorderResult>("POST", `/orders/${encodeURIComponent(orderId)}/reorder`),
    onSuccess: (result) => queryClient.setQueryData(queryKeys.cart.mine, result.cart),
  });
}
