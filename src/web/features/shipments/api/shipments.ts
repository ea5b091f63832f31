import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BackorderCancelled } from "#contract/backorders";
import type { OrderShipments, ShipmentCreate } from "#contract/shipments";
import { apiGet, apiSend } from "../../../lib/api-client";

// Under "orders": a shipment changes what an order shows (its status, tracking, returns).
const KEY = ["orders", "shipments"] as const;
const path = (orderId: string) => `/orders/${encodeURIComponent(orderId)}/shipments`;

/** The order's shipments and, per line, what is shipped and still to ship. */
export const useOrderShipments = (orderId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...KEY, orderId],
    queryFn: () => apiGet<OrderShipments>(path(orderId)),
    enabled,
  });

/** Admin: ships the chosen lines and quantities of the order. */
export function useShipLines(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ShipmentCreate) => apiSend<OrderShipments>("POST", path(orderId), body),
    // The order itself may now be shipped: refresh everything about orders.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["orders"] }),
  });
}

/** The buyer or an admin cancels a line's units on backorder (`line` as a string: its number). */
export function useCancelBackorder(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (line: string) =>
      apiSend<BackorderCancelled>(
        "DELETE",
        `/orders/${encodeURIComponent(orderId)}/backorders/${encodeURIComponent(line)}`,
      ),
    // The order's lines, status and invoices may all have changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["orders"] }),
  });
}
