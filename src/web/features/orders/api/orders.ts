import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Order, OrderCreate, OrderTotal, OrderTotalInput } from "#contract/orders";
import type { OrderDeliveryPromise } from "#contract/shipping";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useSubmissionKeys } from "../../../lib/idempotency";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { orderPath, useOrderRead } from "../../../lib/order-reads";
import { queryKeys } from "../../../lib/query-keys";

export const getMyOrders = () => apiGet<Order[]>("/orders");
export const getOrder = (id: string) => apiGet<Order>(orderPath(id));

export function useMyOrders() {
  return useQuery({ queryKey: queryKeys.orders.mine, queryFn: getMyOrders });
}

export function useOrder(id: string) {
  return useQuery({ queryKey: queryKeys.orders.detail(id), queryFn: () => getOrder(id) });
}

/**
 * The window the order was promised at the cart's checkout, as its page says it (docs/shipping.md
 * "The promise kept with the order"); `enabled`: the customer's own page.
 */
export function useDeliveryPromise(id: string, enabled: boolean) {
  return useOrderRead<OrderDeliveryPromise>(
    [...queryKeys.orders.detail(id), "delivery-promise"],
    id,
    "delivery-promise",
    enabled,
  );
}

export function usePlaceOrder() {
  // Place Order pressed again after no answer: the same attempt, placed at most once.
  const attempts = useSubmissionKeys();
  return useInvalidatingMutation(
    queryKeys.orders.all,
    (input: OrderCreate) =>
      attempts.send(input, (idempotencyKey) =>
        apiSend<{ success: true; order: Order }>("POST", "/orders", input, { idempotencyKey }),
      ),
    // The stock shown on product pages and lists changed.
    { also: [queryKeys.products.all], alsoOnError: true },
  );
}

/** What the order would charge now, to the chosen address (null: nothing to ask yet). */
export function useOrderTotal(input: OrderTotalInput | null) {
  return useQuery({
    ...orderTotalQuery(input ?? ({} as OrderTotalInput)),
    enabled: input !== null,
  });
}

const orderTotalQuery = (input: OrderTotalInput) => ({
  queryKey: queryKeys.orders.total(input),
  queryFn: () => apiSend<OrderTotal>("POST", "/orders/total", input),
  retry: false,
});

/**
 * Asks the order's total with a discount code (the order dialog's Apply): the total when the code
 * applies (kept for the dialog, which then shows it), else the refusal in the API's words.
 */
export function useOrderTotalCheck() {
  const queryClient = useQueryClient();
  return (input: OrderTotalInput) => queryClient.fetchQuery(orderTotalQuery(input));
}

export function useDeleteOrder() {
  return useInvalidatingMutation(
    queryKeys.orders.all,
    (id: string) => apiSend("DELETE", orderPath(id)),
    { also: [queryKeys.products.all] },
  );
}
