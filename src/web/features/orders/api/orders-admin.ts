import { useQuery } from "@tanstack/react-query";
import type {
  AccountHolds,
  AdminOrder,
  AdminOrderDetail,
  AdminOrdersQuery,
  Order,
  OrdersOverview,
  OrderStatusChange,
} from "#contract/orders";
import { apiGet, apiSend } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import type { OrderLimits, OrderLimitsInput } from "#contract/order-limits";
import { useInvalidatingMutation, useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";
import { orderPath } from "../../../lib/order-reads";

export function useAllOrders(query: Partial<AdminOrdersQuery>) {
  return usePageRead<AdminOrder>(queryKeys.orders.admin(query), "/orders/all", query);
}

export function useOrdersOverview() {
  return useQuery({
    queryKey: queryKeys.orders.overview,
    queryFn: () => apiGet<OrdersOverview>("/orders/overview"),
  });
}

export function useChangeOrderStatus() {
  return useInvalidatingMutation(
    queryKeys.orders.all,
    ({ id, ...change }: { id: string } & OrderStatusChange) =>
      apiSend<Order>("PATCH", orderPath(id, "status"), change),
    { also: [queryKeys.products.all] },
  );
}

/** Admin: one order in full, with its payments and history. */
export function useAdminOrderDetail(id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.orders.adminDetail(id),
    queryFn: () => apiGet<AdminOrderDetail>(orderPath(id, "detail")),
    enabled,
  });
}

/** Admin: stock held in unpaid orders, per account. */
export function useHoldsByAccount() {
  return useQuery({
    queryKey: queryKeys.orders.holds,
    queryFn: () => apiGet<AccountHolds[]>("/holds"),
  });
}

/** Admin: cancels every unpaid order of one account; the stock goes back on sale. */
export function useCancelHolds() {
  return useInvalidatingMutation(
    queryKeys.orders.all,
    (userId: string) =>
      apiSend<{ cancelledOrders: number }>("DELETE", `/holds/${encodeURIComponent(userId)}`),
    { also: [queryKeys.products.all] },
  );
}

/** Admin: the order limits in force (holds, per-minute rates). */
export const useOrderLimits = () =>
  useQuery({
    queryKey: queryKeys.orders.limits,
    queryFn: () => apiGet<OrderLimits>("/holds/limits"),
  });

/** Admin: sets the order limits (every placement's, from now on). */
export function useSetOrderLimits() {
  return useReplacingMutation(queryKeys.orders.limits, (limits: OrderLimitsInput) =>
    apiSend<OrderLimits>("PUT", "/holds/limits", limits),
  );
}
