import { useState } from "react";
import { PageSection } from "../../../components/page-title";
import type { RefundDue } from "#contract/payments";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { ListTable, type Column } from "../../../components/data-table";
import { formatDateTime, formatPrice } from "../../../lib/format";
import { useRefundDue, useRefundsDue, useRefundsToRetry } from "../api/payments";
import { RefundsToRetryTable } from "./refunds-to-retry";

const amountOf = (r: RefundDue) => formatPrice(r.amount, r.currency.toUpperCase());

/**
 * Admin: payments the gateway took that the store could not apply (a second payment, one for an
 * order the store cancelled or whose stock was sold, one that fits no order). Each is refunded
 * through the gateway with "Refund" (asked first). Below them, refunds of returns and cancelled
 * orders that did not go through, with "Retry". Shown only when there is one.
 */
export function RefundsDueTable() {
  const { data, error, isPending } = useRefundsDue();
  const toRetry = useRefundsToRetry();
  const refund = useRefundDue();
  const [asking, setAsking] = useState<RefundDue>();
  const retryRows = toRetry.data ?? [];
  if (!error && (isPending || data.length === 0) && retryRows.length === 0) return null;
  const columns: Column<RefundDue>[] = [
    { header: "Payment", role: "title", cell: (r) => `${r.gateway} ${r.gatewayIntentId}` },
    { header: "Amount", numeric: true, cell: amountOf },
    { header: "Why", cell: (r) => r.reason },
    { header: "Order", cell: (r) => r.orderId ?? "none" },
    { header: "Since", cell: (r) => formatDateTime(r.since) },
    {
      header: "Status",
      cell: (r) => (
        <span className="flex flex-col items-start gap-1">
          <span
            data-testid="refund-due-status"
            className={`badge ${r.status === "refunded" ? "badge-success" : "badge-warning"}`}
          >
            {r.status === "refunded" ? "Refunded" : "To refund"}
          </span>
          {r.status === "refund_due" && r.refundError && (
            <span role="alert" className="text-xs text-error">
              The refund failed: {r.refundError}
            </span>
          )}
        </span>
      ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (r) =>
        r.status === "refund_due" ? (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={refund.isPending}
            onClick={() => {
              refund.reset();
              setAsking(r);
            }}
          >
            {r.refundError ? "Retry refund" : "Refund"}
          </button>
        ) : null,
    },
  ];
  return (
    <PageSection headingId="refunds-due-heading" title="Payments to refund">
      {(error || (data?.length ?? 0) > 0) && (
        <ListTable
          isPending={isPending}
          error={error}
          empty={null}
          label="Payments to refund"
          columns={columns}
          rows={data ?? []}
          rowKey={(r) => r.id}
          rowTestId="refund-due"
        />
      )}
      {retryRows.length > 0 && <RefundsToRetryTable rows={retryRows} />}
      <ConfirmDialog
        open={asking !== undefined}
        title="Refund this payment?"
        confirmLabel="Refund"
        tone="positive"
        busy={refund.isPending}
        error={refund.error?.message}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => {
          if (!asking) return;
          refund.mutate(asking.id, { onSuccess: () => setAsking(undefined) });
        }}
      >
        {asking && (
          <p>
            {amountOf(asking)} goes back in full through {asking.gateway} to the card that paid
            {asking.orderId ? "; the customer is emailed" : ""}. This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </PageSection>
  );
}
