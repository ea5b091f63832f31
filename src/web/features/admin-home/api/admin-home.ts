import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminHome } from "#contract/admin-home";
import { apiGet, apiSend } from "../../../lib/api-client";
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, reorderLevel }: { productId: string; reorderLevel: number | null }) =>
      apiSend("PUT", `/products/${encodeURIComponent(productId)}/reorder-level`, { reorderLevel }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminHome }),
  });
}
