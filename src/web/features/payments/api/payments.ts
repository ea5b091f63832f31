import { useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { Order } from "#contract/orders";
import type { Intent, RefundDue, TestCardConfirm } from "#contract/payments";
import type { RefundToRetry } from "#contract/refunds";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useSubmissionKeys } from "../../../lib/idempotency";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";
import { orderPath } from "../../../lib/order-reads";

/** The payment secret for an order; the amount is computed by the server. */
export function usePaymentIntent(orderId: string, enabled: boolean) {
  const attempts = useSubmissionKeys();
  return useQuery({
    queryKey: queryKeys.paymentIntent(orderId),
    queryFn: () =>
      attempts.send({ orderId }, (idempotencyKey) =>
        apiSend<Intent>("POST", "/create-payment-intent", { orderId }, { idempotencyKey }),
      ),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

export const confirmTestCard = (input: TestCardConfirm) =>
  apiSend<{ status: "succeeded"; transactionId: string }>(
    "POST",
    "/payments/test-card/confirm",
    input,
  );

/** Tells the server about a succeeded payment; it checks it with the gateway before believing. */
export function useMarkOrderPaid(orderId: string) {
  return useInvalidatingMutation(
    queryKeys.orders.all,
    (input: { transactionId: string; productId?: string }) =>
      apiSend<Order>("PATCH", orderPath(orderId), input),
  );
}

/** Admin: payments taken that the store could not apply, to refund. */
export function useRefundsDue() {
  return useQuery({
    queryKey: queryKeys.refundsDue,
    queryFn: () => apiGet<RefundDue[]>("/payments/refunds-due"),
  });
}

/**
 * A write on one row of the admin's cached list under `key`: the answered row replaces the listed
 * one (the list itself is read afresh on the next visit); the home's counts are read again.
 */
function useRowReplacingMutation<Row extends { id: string }>(
  key: QueryKey,
  fn: (id: string) => Promise<Row>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (after) => {
      queryClient.setQueryData<Row[]>(key, (rows) =>
        rows?.map((r) => (r.id === after.id ? after : r)),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminHome });
    },
  });
}

/**
 * Admin: refunds a refund-due payment through its gateway. The answered row replaces the listed
 * one (it shows "Refunded", or the gateway's words when it failed); the list itself is read
 * afresh on the next visit, when a refunded payment has left it.
 */
export const useRefundDue = () =>
  useRowReplacingMutation(queryKeys.refundsDue, (id) =>
    apiSend<RefundDue>("POST", `/payments/${encodeURIComponent(id)}/refund`),
  );

/** Admin: refunds of returns and cancelled orders that have not gone through, oldest first. */
export function useRefundsToRetry() {
  return useQuery({
    queryKey: queryKeys.refundsToRetry,
    queryFn: () => apiGet<RefundToRetry[]>("/refunds"),
  });
}

/**
 * Admin: tries a refund again (its one idempotency key: it refunds once). The answered refund
 * replaces the listed one ("Refunded", or the gateway's new words); the home's count is read again.
 */
export const useRetryRefund = () =>
  useRowReplacingMutation(queryKeys.refundsToRetry, (id) =>
    apiSend<RefundToRetry>("POST", `/refunds/${encodeURIComponent(id)}/retry`),
  );
