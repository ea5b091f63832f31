import type { ProductCreate, ProductCreated } from "#contract/products";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

export const createProduct = (input: ProductCreate) =>
  apiSend<ProductCreated>("POST", "/products", input);

export function useCreateProduct() {
  // The landing page's newest products and every list page may now show it.
  return useInvalidatingMutation(queryKeys.products.all, createProduct);
}
