import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ShippingZone, ShippingZoneDraft } from "#contract/shipping";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const useShippingZones = () =>
  useQuery({
    queryKey: queryKeys.shippingZones,
    queryFn: () => apiGet<ShippingZone[]>("/shipping-zones"),
  });

/** Adds a zone (no id) or replaces one with its methods. */
export function useSaveShippingZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, zone }: { id?: string; zone: ShippingZoneDraft }) =>
      id
        ? apiSend<ShippingZone>("PUT", `/shipping-zones/${encodeURIComponent(id)}`, zone)
        : apiSend<ShippingZone>("POST", "/shipping-zones", zone),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.shippingZones }),
  });
}

export function useRemoveShippingZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiSend<void>("DELETE", `/shipping-zones/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.shippingZones }),
  });
}
