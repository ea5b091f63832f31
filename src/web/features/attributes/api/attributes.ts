import { useQuery } from "@tanstack/react-query";
import type {
  AdminAttributeDefinition,
  AttributeDefinition,
  ProductAttribute,
  ProductAttributeValues,
} from "#contract/attributes";
import type { ProductCategory } from "#contract/constants";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
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
const alsoProducts = { also: [queryKeys.products.all] };

export function useAddAttribute() {
  return useInvalidatingMutation(
    keys.all,
    (body: object) => apiSend<AttributeDefinition>("POST", "/attributes", body),
    alsoProducts,
  );
}

export function useChangeAttribute() {
  return useInvalidatingMutation(
    keys.all,
    ({ id, body }: { id: string; body: object }) =>
      apiSend<AttributeDefinition>("PATCH", `/attributes/${encodeURIComponent(id)}`, body),
    alsoProducts,
  );
}

export function useRemoveAttribute() {
  return useInvalidatingMutation(
    keys.all,
    (id: string) => apiSend<void>("DELETE", `/attributes/${encodeURIComponent(id)}`),
    alsoProducts,
  );
}

/** Replaces a product's values (PUT /products/:id/attributes). */
export function useSetProductAttributes(productId: string) {
  return useInvalidatingMutation(
    keys.all,
    (body: ProductAttributeValues) =>
      apiSend<{ attributes: ProductAttribute[] }>(
        "PUT",
        `/products/${encodeURIComponent(productId)}/attributes`,
        body,
      ),
    alsoProducts,
  );
}
