import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductCreate, ProductCreated } from "#contract/products";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const createProduct = (input: ProductCreate) =>
  apiSend<ProductCreated>("POST", "/products", input);

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    // The landing page's newest products and every list page may now show it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.products.all }),
  });
}
