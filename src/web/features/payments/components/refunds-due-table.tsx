import type { RefundDue } from "#contract/payments";
import { DataTable, ListStates, type Column } from "../../../components/data-table";
import { formatDateTime, formatPrice } from "../../../lib/format";
import { useRefundsDue } from "../api/payments";

/**
 * Admin: payments the gateway took that the store could not apply (a second payment, one for an
 * order the store cancelled or whose stock was sold, one that fits no order). Each is to be
 * refunded at the gateway; shown only when there is one.
 */
export function RefundsDueTable() {
  const { data, error, isPending } = useRefundsDue();
  if (!error && (isPending || data.length === 0)) return null;
  const columns: Column<RefundDue>[] = [
    { header: "Payment", role: "title", cell: (r) => `${r.gateway} ${r.gatewayIntentId}` },
    {
      header: "Amount",
      numeric: true,
      cell: (r) => formatPrice(r.amount, r.currency.toUpperCase()),
    },
    { header: "Why", cell: (r) => r.reason },
    { header: "Order", cell: (r) => r.orderId ?? "none" },
    { header: "Since", cell: (r) => formatDateTime(r.since) },
  ];
  return (
    <section aria-labelledby="refunds-due-heading" className="flex flex-col gap-4">
      <h2 id="refunds-due-heading" className="text-xl font-bold">
        Payments to refund
      </h2>
      <ListStates
        isPending={isPending}
        error={error}
        count={data?.length}
        filtered={false}
        empty={null}
        noMatch={null}
      >
        <DataTable
          label="Payments to refund"
          columns={columns}
          rows={data ?? []}
          rowKey={(r) => r.id}
          rowTestId="refund-due"
        />
      </ListStates>
    </section>
  );
}
