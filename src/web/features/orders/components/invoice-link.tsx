import { invoicePdfPath } from "#contract/invoices";
import type { Order } from "#contract/orders";
import { chargedToAccount } from "#contract/terms";
import { dueDateWords } from "#contract/payment-words";
import { formatDate, formatOrderNumber } from "../../../lib/format";
import { useOrderInvoice } from "../api/invoice";

/** Whether an order has been paid, so has its invoice (issued with the payment). */
export const isInvoiced = (order: Pick<Order, "status" | "warrantyClaim">) =>
  (order.status === "paid" || order.status === "shipped") && !order.warrantyClaim;

/** "Download invoice": the paid order's invoice PDF (the server names the file by its number). */
export function InvoiceLink({
  order,
  className,
}: {
  order: Pick<Order, "_id" | "number">;
  className?: string;
}) {
  return (
    <a
      href={invoicePdfPath(order._id)}
      download
      className={className ?? "btn btn-sm btn-outline"}
      aria-label={`Download invoice: order ${formatOrderNumber(order)}`}
    >
      Download invoice
    </a>
  );
}

/** The order page's invoice line: its number and date, and the download. */
export function OrderInvoice({ order }: { order: Order }) {
  const paid = isInvoiced(order);
  const { data: invoice, isError } = useOrderInvoice(order._id, paid);
  if (!paid) return null;
  if (isError) return <p className="text-sm text-error">The invoice could not be loaded.</p>;
  if (invoice === undefined) return null;
  if (invoice === null) {
    return <p className="text-sm">This order was paid before the store issued invoices.</p>;
  }
  if (invoice.terms !== "card") {
    return (
      <p className="flex flex-wrap items-center gap-2" data-testid="order-invoice">
        <span>{chargedToAccount(invoice.number, dueDateWords(invoice.dueAt))}</span>
        <InvoiceLink order={order} className="btn btn-xs btn-outline" />
      </p>
    );
  }
  return (
    <p className="flex flex-wrap items-center gap-2" data-testid="order-invoice">
      <span>
        Invoice <span className="font-mono">{invoice.number}</span> · issued{" "}
        {formatDate(invoice.issuedAt)}
      </span>
      <InvoiceLink order={order} className="btn btn-xs btn-outline" />
    </p>
  );
}
