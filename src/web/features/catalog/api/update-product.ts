import type { AdminProduct, ProductUpdate } from "#contract/products";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

export const updateProduct = ({ id, changes }: { id: string; changes: ProductUpdate }) =>
  apiSend<AdminProduct>("PATCH", `/products/${encodeURIComponent(id)}`, changes);

export function useUpdateProduct() {
  return useInvalidatingMutation(queryKeys.products.all, updateProduct);
}
