import type { RefundToRetry } from "#contract/refunds";
import { paths } from "#contract/paths";
import { DataTable, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { formatDateTime, formatOrderNumber, formatPrice } from "../../../lib/format";
import { useRetryRefund } from "../api/payments";

const amountOf = (r: RefundToRetry) => formatPrice(r.amount, r.currency.toUpperCase());
const kindLabels: Record<RefundToRetry["kind"], string> = {
  cancellation: "Order cancelled",
  return: "Return received",
  backorder: "Backordered units cancelled",
};

/** The admin home's list: the oldest refunds that did not go through, each with its Retry. */
export function RefundsToRetryList({ refunds }: { refunds: RefundToRetry[] }) {
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {refunds.map((r) => (
        <li
          key={r.id}
          className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1"
          data-testid="home-refund-to-retry"
        >
          <Link to={paths.order.to(r.orderId)} className="link font-mono">
            {formatOrderNumber(r)}
          </Link>
          <span className="tabular-nums">{amountOf(r)}</span>
          <RefundRetryStatus refund={r} />
          <RetryRefundButton refund={r} />
        </li>
      ))}
    </ul>
  );
}

/** Where a refund stands: refunded, failed with the gateway's words, or cut off (pending). */
function RefundRetryStatus({ refund }: { refund: RefundToRetry }) {
  if (refund.status === "succeeded") {
    return (
      <span data-testid="refund-retry-status" className="badge badge-success">
        Refunded
      </span>
    );
  }
  return (
    <span className="flex flex-col items-start gap-1">
      <span data-testid="refund-retry-status" className="badge badge-warning">
        {refund.status === "failed" ? "Refund failed" : "No answer from the gateway"}
      </span>
      {refund.error && (
        <span role="alert" className="text-xs text-error">
          {refund.error}
        </span>
      )}
    </span>
  );
}

/** Tries one refund again; its new state shows where it is listed. */
function RetryRefundButton({ refund }: { refund: RefundToRetry }) {
  const retry = useRetryRefund();
  if (refund.status === "succeeded") return null;
  return (
    <span className="flex flex-col items-start gap-1">
      <button
        type="button"
        className="btn btn-sm btn-primary"
        disabled={retry.isPending}
        onClick={() => retry.mutate(refund.id)}
      >
        {retry.isPending ? "Retrying…" : "Retry"}
      </button>
      {retry.error && (
        <span role="alert" className="text-xs text-error">
          {retry.error.message}
        </span>
      )}
    </span>
  );
}

/**
 * Admin ("Payments to refund"): refunds of returns and cancelled paid orders that have not gone
 * through. A job retries them by itself with the same idempotency key; "Retry" does it now.
 */
export function RefundsToRetryTable({ rows }: { rows: RefundToRetry[] }) {
  const columns: Column<RefundToRetry>[] = [
    {
      header: "Order",
      role: "title",
      cell: (r) => (
        <Link to={paths.order.to(r.orderId)} className="link font-mono">
          {formatOrderNumber(r)}
        </Link>
      ),
    },
    { header: "Why", cell: (r) => kindLabels[r.kind] },
    { header: "Amount", numeric: true, cell: amountOf },
    { header: "Through", cell: (r) => r.gateway },
    { header: "Since", cell: (r) => formatDateTime(r.since) },
    { header: "Tries", numeric: true, cell: (r) => String(r.attempts) },
    { header: "Status", cell: (r) => <RefundRetryStatus refund={r} /> },
    { header: "Actions", role: "actions", cell: (r) => <RetryRefundButton refund={r} /> },
  ];
  return (
    <div className="flex flex-col gap-2">
      <h3 id="refunds-to-retry-heading" className="text-lg font-semibold">
        Refunds that did not go through
      </h3>
      <DataTable
        label="Refunds that did not go through"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        rowTestId="refund-to-retry"
      />
    </div>
  );
}
