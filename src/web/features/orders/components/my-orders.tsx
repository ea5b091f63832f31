import { useState } from "react";
import { Link } from "../../../components/link";
import type { Order } from "#contract/orders";
import { RemoveDialog } from "../../../components/confirm-dialog";
import { ListTable, type Column } from "../../../components/data-table";
import { formatDate, formatDateTime, formatOrderNumber, formatPrice } from "../../../lib/format";
import { paths } from "#contract/paths";
import { paymentWords } from "#contract/payment-words";
import { useDeleteOrder, useMyOrders } from "../api/orders";
import { InvoiceLink, isInvoiced } from "./invoice-link";
import { OrderAgainButton } from "./order-again-button";
import { OrderStatusBadge } from "./order-status-badge";

/**
 * My orders (SPEC section 2): unpaid ones can be paid or deleted; paid ones show the payment; a
 * company buyer's order awaiting approval can be deleted (withdrawn), not paid.
 */
export function MyOrders() {
  const { data: orders, error, isPending } = useMyOrders();
  const remove = useDeleteOrder();
  const [toDelete, setToDelete] = useState<Order>();

  const columns: Column<Order>[] = [
    {
      header: "Order",
      role: "title",
      cell: (o) => (
        <ul className="flex flex-col gap-0.5">
          <li className="font-mono text-xs font-normal text-base-content/75">
            {formatOrderNumber(o)}
          </li>
          {o.items.map((line, i) => (
            <li key={i}>
              {line.productName}
              <span className="font-normal text-base-content/75">
                {" "}
                · {line.qty} × {formatPrice(line.unitPrice, o.currency)}
              </span>
            </li>
          ))}
        </ul>
      ),
    },
    { header: "Ordered", cell: (o) => formatDate(o.createdAt) },
    {
      header: "Deliver to",
      cell: (o) => (
        <span className="max-md:text-right">
          {o.Address}
          <span className="block text-xs text-base-content/75">{o.phonrNo}</span>
        </span>
      ),
    },
    { header: "Total", numeric: true, cell: (o) => formatPrice(o.total, o.currency) },
    {
      header: "Status",
      cell: (o) => (
        <div className="flex flex-col gap-1 max-md:items-end">
          <OrderStatusBadge order={o} />
          {o.status === "unpaid" && (
            <span className="text-xs text-base-content/75">
              Stock held until {formatDateTime(o.holdExpiresAt)}
            </span>
          )}
          {o.status === "awaiting_approval" && (
            <span className="text-xs text-base-content/75">
              Over your spending limit: an owner of your company decides by{" "}
              {formatDateTime(o.holdExpiresAt)}
            </span>
          )}
          {o.account ? (
            <span className="text-xs text-base-content/75" data-testid="order-payment">
              {paymentWords(o).line}
            </span>
          ) : (
            o.transactionId && (
              <span className="text-xs break-all text-base-content/75">
                Transaction id: <span className="font-mono">{o.transactionId}</span>
              </span>
            )
          )}
        </div>
      ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (o) => (
        <>
          {(o.status === "unpaid" || o.status === "awaiting_approval") && (
            <>
              {o.status === "unpaid" && (
                <Link to={paths.payment.to(o._id)} className="btn btn-sm btn-primary">
                  Pay
                </Link>
              )}
              <button
                type="button"
                className="btn btn-sm btn-outline btn-error"
                onClick={() => setToDelete(o)}
              >
                Delete
              </button>
            </>
          )}
          {o.status !== "unpaid" && o.status !== "awaiting_approval" && (
            <OrderAgainButton order={o} />
          )}
          {isInvoiced(o) && <InvoiceLink order={o} />}
          <Link
            to={paths.order.to(o._id)}
            className="btn btn-ghost btn-sm"
            aria-label={`Details: order ${formatOrderNumber(o)}`}
          >
            Details
          </Link>
        </>
      ),
    },
  ];

  return (
    <>
      <ListTable
        isPending={isPending}
        error={error}
        empty={
          <>
            You have no orders yet.{" "}
            <Link to={paths.allProducts} className="link link-primary">
              Browse the parts
            </Link>
            .
          </>
        }
        label="My orders"
        columns={columns}
        rows={orders ?? []}
        rowKey={(o) => o._id}
        rowTestId="my-order"
      />
      <RemoveDialog
        target={toDelete}
        close={() => setToDelete(undefined)}
        title="Delete this order?"
        confirmLabel="Delete"
        removal={remove}
        id={(o) => o._id}
        removed="Your order is deleted"
      >
        {(o) => (
          <p>
            The order for {o.orderQty} × {o.productName} will be deleted and its stock released.
            This cannot be undone.
          </p>
        )}
      </RemoveDialog>
    </>
  );
}
