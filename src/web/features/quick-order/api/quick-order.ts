import { useMutation } from "@tanstack/react-query";
import type { QuickOrderAdded, QuickOrderResult } from "#contract/quick-order";
import { QUICK_ORDER_FILE_FIELD } from "#contract/quick-order";
import { apiSend, apiUpload } from "../../../lib/api-client";
import { useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/** What to resolve: pasted text, the lines of the table, or a CSV file. */
export type QuickOrderSource =
  { text: string } | { lines: { number: string; qty: string }[] } | { file: File };

const bodyOf = (source: { text: string } | { lines: { number: string; qty: string }[] }) =>
  "text" in source
    ? { text: source.text }
    : {
        lines: source.lines.map((l) => ({
          number: l.number,
          qty: /^\d+$/.test(l.qty.trim()) ? Number(l.qty.trim()) : l.qty,
        })),
      };

export function resolveQuickOrder(source: QuickOrderSource): Promise<QuickOrderResult> {
  if ("file" in source) {
    return apiUpload<QuickOrderResult>("/quick-order/upload", QUICK_ORDER_FILE_FIELD, source.file);
  }
  return apiSend<QuickOrderResult>("POST", "/quick-order/resolve", bodyOf(source));
}

export const useResolveQuickOrder = () => useMutation({ mutationFn: resolveQuickOrder });

/** Adds every good line to the cart; the answer holds the lines left out. */
export function useAddQuickOrderToCart() {
  return useReplacingMutation(
    queryKeys.cart.mine,
    (lines: { number: string; qty: string }[]) =>
      apiSend<QuickOrderAdded>("POST", "/quick-order/add-to-cart", bodyOf({ lines })),
    (added) => added.cart,
  );
}
