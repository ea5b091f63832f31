import { useQuery } from "@tanstack/react-query";
import type {
  AllocationPolicy,
  BackorderPolicy,
  Location,
  LocationDraft,
  ProductStock,
  StockCount,
  StockTransfer,
  StockTransferInput,
} from "#contract/locations";
import type { ProductListItem } from "#contract/products";
import { apiGet, apiSend, toQueryString } from "../../../lib/api-client";
import { useInvalidatingMutation, useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

export const useLocations = () =>
  useQuery({
    queryKey: queryKeys.locations.list,
    queryFn: () => apiGet<Location[]>("/locations"),
  });

/** Adds a location (no id) or changes one. */
export function useSaveLocation() {
  return useInvalidatingMutation(
    queryKeys.locations.all,
    ({ id, location }: { id?: string; location: Partial<LocationDraft> }) =>
      id
        ? apiSend<Location>("PATCH", `/locations/${encodeURIComponent(id)}`, location)
        : apiSend<Location>("POST", "/locations", location),
  );
}

const allocationKey = [...queryKeys.locations.all, "allocation"] as const;

/** How orders are allocated to locations (admin). */
export const useAllocationPolicy = () =>
  useQuery({
    queryKey: allocationKey,
    queryFn: () => apiGet<AllocationPolicy>("/locations/allocation-policy"),
  });

export function useSetAllocationPolicy() {
  return useReplacingMutation(allocationKey, (policy: AllocationPolicy) =>
    apiSend<AllocationPolicy>("PUT", "/locations/allocation-policy", policy),
  );
}

export const useProductStock = (productId: string) =>
  useQuery({
    queryKey: queryKeys.locations.stock(productId),
    queryFn: () => apiGet<ProductStock>(`/locations/stock/${encodeURIComponent(productId)}`),
  });

export const useTransfers = (productId: string) =>
  useQuery({
    queryKey: queryKeys.locations.transfers(productId),
    queryFn: () => apiGet<StockTransfer[]>(`/locations/transfers${toQueryString({ productId })}`),
  });

/** A count's and a transfer's answer changes the product's stock: lists of products too. */
const useStockWrite = <Vars, Answer>(send: (vars: Vars) => Promise<Answer>) =>
  useInvalidatingMutation(queryKeys.locations.all, send, { also: [queryKeys.products.all] });

export const useCountStock = () =>
  useStockWrite(
    ({
      locationId,
      productId,
      count,
    }: {
      locationId: string;
      productId: string;
      count: StockCount;
    }) =>
      apiSend<ProductStock>(
        "PUT",
        `/locations/${encodeURIComponent(locationId)}/stock/${encodeURIComponent(productId)}`,
        count,
      ),
  );

export const useTransferStock = () =>
  useStockWrite((transfer: StockTransferInput) =>
    apiSend<StockTransfer>("POST", "/locations/transfers", transfer),
  );

/** Products whose name or part number matches `q` (the Locations page's product chooser). */
export const useProductSearch = (q: string) =>
  useQuery({
    queryKey: queryKeys.products.list({ q, limit: 8 }),
    queryFn: () => apiGet<ProductListItem[]>(`/products${toQueryString({ q, limit: 8 })}`),
    enabled: q.trim().length > 0,
  });

/** Whether a product takes backorders, and its lead time (the stock page's Backorders). */
export const useSaveBackorderPolicy = () =>
  useStockWrite(({ productId, policy }: { productId: string; policy: BackorderPolicy }) =>
    apiSend<ProductStock>(
      "PUT",
      `/locations/stock/${encodeURIComponent(productId)}/backorders`,
      policy,
    ),
  );
