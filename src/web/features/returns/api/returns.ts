import { useQuery } from "@tanstack/react-query";
import { RETURN_PHOTO_FIELD } from "#contract/returns";
import type {
  CreditNote,
  FitmentReport,
  ReceiveReturnInput,
  RestockingFee,
  Return,
  ReturnDecision,
  ReturnPhoto,
  Returnable,
  ReturnRequestInput,
  ReturnStatus,
  ReturnWindows,
  ReturnWindowsInput,
} from "#contract/returns";
import { apiGet, apiSend, apiUpload } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useSubmissionKeys } from "../../../lib/idempotency";
import { useInvalidatingMutation, useReplacingMutation } from "../../../lib/invalidating-mutation";
import { orderPath, useOrderRead } from "../../../lib/order-reads";
import { queryKeys } from "../../../lib/query-keys";

// Under "orders": a return changes what an order shows (its returns, credit notes, stock).
const KEY = ["orders", "returns"] as const;
const keys = {
  returnable: (orderId: string) => [...KEY, "returnable", orderId] as const,
  forOrder: (orderId: string) => [...KEY, "order", orderId] as const,
  creditNotes: (orderId: string) => [...KEY, "credit-notes", orderId] as const,
  admin: (query: object) => [...KEY, "admin", query] as const,
  fitment: [...KEY, "fitment"] as const,
  fee: [...KEY, "restocking-fee"] as const,
  windows: [...KEY, "windows"] as const,
};

/** What of the order can still be returned, and until when. */
export const useReturnable = (orderId: string, enabled: boolean) =>
  useOrderRead<Returnable>(keys.returnable(orderId), orderId, "returnable", enabled);

/** The order's returns, with their status. */
export const useOrderReturns = (orderId: string, enabled: boolean) =>
  useOrderRead<Return[]>(keys.forOrder(orderId), orderId, "returns", enabled);

/** The order's credit notes (its refunds). */
export const useOrderCreditNotes = (orderId: string, enabled: boolean) =>
  useOrderRead<CreditNote[]>(keys.creditNotes(orderId), orderId, "credit-notes", enabled);

/** The customer asks to return lines of their shipped order. */
export function useRequestReturn(orderId: string) {
  const attempts = useSubmissionKeys();
  return useInvalidatingMutation(
    KEY,
    (body: ReturnRequestInput) =>
      attempts.send(body, (idempotencyKey) =>
        apiSend<Return>("POST", orderPath(orderId, "returns"), body, { idempotencyKey }),
      ),
    { alsoOnError: true },
  );
}

/** The customer adds photos to their return while it awaits an answer (all or none). */
export function useAddReturnPhotos() {
  return useInvalidatingMutation(
    KEY,
    ({ returnId, files }: { returnId: string; files: File[] }) =>
      apiUpload<ReturnPhoto[]>(
        `/returns/${encodeURIComponent(returnId)}/photos`,
        RETURN_PHOTO_FIELD,
        files,
      ),
    { alsoOnError: true },
  );
}

/** Admin: return requests by status, paged. */
export const useAdminReturns = (query: { status?: ReturnStatus; limit: number; offset: number }) =>
  usePageRead<Return>(keys.admin(query), "/returns", query);

/** Admin: "did not fit" returns per product. */
export const useFitmentReport = () =>
  useQuery({
    queryKey: keys.fitment,
    queryFn: () => apiGet<FitmentReport>("/returns/fitment-report"),
  });

type AdminAction =
  | { kind: "decision"; id: string; body: ReturnDecision }
  | { kind: "receive"; id: string; body: ReceiveReturnInput }
  | { kind: "refund"; id: string };

/** Admin: approve or refuse, mark received (stock back, refund), retry a failed refund. */
export function useReturnAction() {
  return useInvalidatingMutation(
    KEY,
    (action: AdminAction) =>
      apiSend<Return>(
        "POST",
        `/returns/${encodeURIComponent(action.id)}/${action.kind}`,
        action.kind === "refund" ? undefined : action.body,
      ),
    // Receiving puts stock back.
    { also: [queryKeys.products.all], alsoOnError: true },
  );
}

/** Admin: the restocking-fee rule. */
export const useRestockingFee = () =>
  useQuery({ queryKey: keys.fee, queryFn: () => apiGet<RestockingFee>("/returns/restocking-fee") });

/** Admin: sets the restocking-fee rule (returns received from now on). */
export function useSetRestockingFee() {
  return useReplacingMutation(keys.fee, (fee: RestockingFee) =>
    apiSend<RestockingFee>("PUT", "/returns/restocking-fee", fee),
  );
}

/** Admin: the return windows in force. */
export const useReturnWindows = () =>
  useQuery({ queryKey: keys.windows, queryFn: () => apiGet<ReturnWindows>("/returns/windows") });

/** Admin: sets the return windows (every order's, from now on). */
export function useSetReturnWindows() {
  return useReplacingMutation(keys.windows, (windows: ReturnWindowsInput) =>
    apiSend<ReturnWindows>("PUT", "/returns/windows", windows),
  );
}
