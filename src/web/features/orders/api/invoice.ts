import { useQuery } from "@tanstack/react-query";
import type { InvoiceSummary } from "#contract/invoices";
import { ApiError, apiGet } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { orderPath } from "../../../lib/order-reads";

/** The order's invoice, or null while it has none (unpaid: the API answers 404 with why). */
export const getOrderInvoice = async (orderId: string): Promise<InvoiceSummary | null> => {
  try {
    return await apiGet<InvoiceSummary>(orderPath(orderId, "invoice"));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
};

/** Asked only for paid orders: an unpaid one has no invoice yet. */
export function useOrderInvoice(orderId: string, paid: boolean) {
  return useQuery({
    queryKey: queryKeys.orders.invoice(orderId),
    queryFn: () => getOrderInvoice(orderId),
    enabled: paid,
    // An issued invoice never changes.
    staleTime: Infinity,
  });
}
