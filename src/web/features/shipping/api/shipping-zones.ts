import { useQuery } from "@tanstack/react-query";
import type { ShippingZone, ShippingZoneDraft } from "#contract/shipping";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

export const useShippingZones = () =>
  useQuery({
    queryKey: queryKeys.shippingZones,
    queryFn: () => apiGet<ShippingZone[]>("/shipping-zones"),
  });

/** Adds a zone (no id) or replaces one with its methods. */
export function useSaveShippingZone() {
  return useInvalidatingMutation(
    queryKeys.shippingZones,
    ({ id, zone }: { id?: string; zone: ShippingZoneDraft }) =>
      id
        ? apiSend<ShippingZone>("PUT", `/shipping-zones/${encodeURIComponent(id)}`, zone)
        : apiSend<ShippingZone>("POST", "/shipping-zones", zone),
  );
}

export function useRemoveShippingZone() {
  return useInvalidatingMutation(queryKeys.shippingZones, (id: string) =>
    apiSend<void>("DELETE", `/shipping-zones/${encodeURIComponent(id)}`),
  );
}
