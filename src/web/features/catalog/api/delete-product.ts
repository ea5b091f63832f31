import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const deleteProduct = (id: string) =>
  apiSend<{ success: true }>("DELETE", `/products/${encodeURIComponent(id)}`);

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: (_, id) => {
      // The product page of a deleted product must not show it from the cache.
      queryClient.removeQueries({ queryKey: queryKeys.products.detail(id) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.products.all });
    },
  });
}
