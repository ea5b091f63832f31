import { useQuery, type QueryKey } from "@tanstack/react-query";
import { apiGet } from "./api-client";

/** The API path of an order (`/orders/:id`), or of what is the order's under it (`…/returns`). */
export const orderPath = (orderId: string, what?: string) =>
  `/orders/${encodeURIComponent(orderId)}${what === undefined ? "" : `/${what}`}`;

/**
 * A read of what is an order's (`GET /orders/:id/<what>`: its returns, claims, shipments, …),
 * cached under `queryKey` and asked only while `enabled` (the order's page shows it).
 */
export const useOrderRead = <T>(
  queryKey: QueryKey,
  orderId: string,
  what: string,
  enabled: boolean,
) => useQuery({ queryKey, queryFn: () => apiGet<T>(orderPath(orderId, what)), enabled });
