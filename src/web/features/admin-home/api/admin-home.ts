import { useQuery } from "@tanstack/react-query";
import type { AdminHome, LowStockEmail, LowStockEmailInput } from "#contract/admin-home";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation, useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/** Admin: what is waiting today. */
export function useAdminHome() {
  return useQuery({
    queryKey: queryKeys.adminHome,
    queryFn: () => apiGet<AdminHome>("/admin-home"),
    staleTime: 0,
  });
}

/** Admin: one product's reorder level (null: back to the default). */
export function useSetReorderLevel() {
  return useInvalidatingMutation(
    queryKeys.adminHome,
    ({ productId, reorderLevel }: { productId: string; reorderLevel: number | null }) =>
      apiSend("PUT", `/products/${encodeURIComponent(productId)}/reorder-level`, { reorderLevel }),
  );
}

/** Admin: whether the daily low-stock email goes, and from which hour (UTC). */
export const useLowStockEmail = () =>
  useQuery({
    queryKey: queryKeys.lowStockEmail,
    queryFn: () => apiGet<LowStockEmail>("/admin-home/low-stock-email"),
  });

/** Admin: turns the daily low-stock email on or off and sets its hour. */
export function useSetLowStockEmail() {
  return useReplacingMutation(queryKeys.lowStockEmail, (settings: LowStockEmailInput) =>
    apiSend<LowStockEmail>("PUT", "/admin-home/low-stock-email", settings),
  );
}
