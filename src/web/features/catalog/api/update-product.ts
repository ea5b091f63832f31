import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminProduct, ProductUpdate } from "#contract/products";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const updateProduct = ({ id, changes }: { id: string; changes: ProductUpdate }) =>
  apiSend<AdminProduct>("PATCH", `/products/${encodeURIComponent(id)}`, changes);

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.products.all }),
  });
}
