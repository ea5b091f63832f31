import type { BackorderCancelled } from "#contract/backorders";
import type { OrderShipments, ShipmentCreate } from "#contract/shipments";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { orderPath, useOrderRead } from "../../../lib/order-reads";

// Under "orders": a shipment changes what an order shows (its status, tracking, returns).
const KEY = ["orders", "shipments"] as const;

/** The order's shipments and, per line, what is shipped and still to ship. */
export const useOrderShipments = (orderId: string, enabled: boolean) =>
  useOrderRead<OrderShipments>([...KEY, orderId], orderId, "shipments", enabled);

/** Admin: ships the chosen lines and quantities of the order. */
export const useShipLines = (orderId: string) =>
  // The order itself may now be shipped: refresh everything about orders.
  useInvalidatingMutation(
    ["orders"],
    (body: ShipmentCreate) =>
      apiSend<OrderShipments>("POST", orderPath(orderId, "shipments"), body),
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
        orderPath(orderId, `backorders/${encodeURIComponent(line)}`),
      ),
    { alsoOnError: true },
  );
