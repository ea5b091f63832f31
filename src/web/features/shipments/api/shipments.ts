import { useQuery } from "@tanstack/react-query";
import type { BackorderCancelled } from "#contract/backorders";
import type { OrderShipments, ShipmentCreate } from "#contract/shipments";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

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
export const useShipLines = (orderId: string) =>
  // The order itself may now be shipped: refresh everything about orders.
  useInvalidatingMutation(
    ["orders"],
    (body: ShipmentCreate) => apiSend<OrderShipments>("POST", path(orderId), body),
    { alsoOnError: true },
  );

/** The buyer or an admin cancels a line's units on backorder (`line` as a string: its number). */
export const useCancelBackorder = (orderId: string) =>
  // The order's lines, status and invoices may all have changed.
  useInvalidatingMutation(
    ["orders"],
    (line: string) =>
      apiSend<BackorderCancelled>(
        "DELETE",
        `/orders/${encodeURIComponent(orderId)}/backorders/${encodeURIComponent(line)}`,
      ),
    { alsoOnError: true },
  );
