import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AdminAttributeDefinition,
  AttributeDefinition,
  ProductAttribute,
  ProductAttributeValues,
} from "#contract/attributes";
import type { ProductCategory } from "#contract/constants";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Attribute definitions by category (docs/attributes.md); the admin's table under the same root. */
const keys = {
  all: ["attributes"] as const,
  category: (category: ProductCategory) => ["attributes", "category", category] as const,
  table: (category: ProductCategory) => ["attributes", "table", category] as const,
};

const query = (category: ProductCategory) => `?category=${encodeURIComponent(category)}`;

/** A category's definitions in their order (anyone may read them). */
export const useAttributeDefinitions = (category: ProductCategory) =>
  useQuery({
    queryKey: keys.category(category),
    queryFn: () => apiGet<AttributeDefinition[]>(`/attributes${query(category)}`),
  });

/** The admin's table: a category's definitions, each with how many parts have a value. */
export const useAttributeTable = (category: ProductCategory) =>
  useQuery({
    queryKey: keys.table(category),
    queryFn: () => apiGet<AdminAttributeDefinition[]>(`/attributes/table${query(category)}`),
  });

/** After any change: the definitions, and products (their answers carry the values). */
function useAttributesChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.products.all }),
    ]);
}

export function useAddAttribute() {
  const changed = useAttributesChanged();
  return useMutation({
    mutationFn: (body: object) => apiSend<AttributeDefinition>("POST", "/attributes", body),
    onSuccess: changed,
  });
}

export function useChangeAttribute() {
  const changed = useAttributesChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: object }) =>
      apiSend<AttributeDefinition>("PATCH", `/attributes/${encodeURIComponent(id)}`, body),
    onSuccess: changed,
  });
}

export function useRemoveAttribute() {
  const changed = useAttributesChanged();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", `/attributes/${encodeURIComponent(id)}`),
    onSuccess: changed,
  });
}

/** Replaces a product's values (PUT /products/:id/attributes). */
export function useSetProductAttributes(productId: string) {
  const changed = useAttributesChanged();
  return useMutation({
    mutationFn: (body: ProductAttributeValues) =>
      apiSend<{ attributes: ProductAttribute[] }>(
        "PUT",
        `/products/${encodeURIComponent(productId)}/attributes`,
        body,
      ),
    onSuccess: changed,
  });
}
