import { useQuery } from "@tanstack/react-query";
import type { AdminHome } from "#contract/admin-home";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
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
