import { useState } from "react";
import { Link } from "react-router";
import { notify } from "../../../lib/notify";
import type { Order } from "#contract/orders";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatDate, formatDateTime, formatPrice } from "../../../lib/format";
import { paths } from "#contract/paths";
import { useDeleteOrder, useMyOrders } from "../api/orders";
import { OrderStatusBadge } from "./order-status-badge";

/** My orders (SPEC section 2): unpaid ones can be paid or deleted; paid ones show the payment. */
export function MyOrders() {
  const { data: orders, error, isPending } = useMyOrders();
  const remove = useDeleteOrder();
  const [toDelete, setToDelete] = useState<Order>();

  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  if (orders.length === 0) {
    return (
      <p className="rounded-box bg-base-200 p-8 text-center text-base-content/70">
        You have no orders yet.{" "}
        <Link to="/allproducts" className="link link-primary">
          Browse the parts
        </Link>
        .
      </p>
    );
  }
  return (
    <>
      <ul className="flex flex-col gap-3" aria-label="My orders">
        {orders.map((o) => (
          <li
            key={o._id}
            className="card border border-base-300 bg-base-100"
            data-testid="my-order"
          >
            <div className="card-body flex-col gap-3 p-4 sm:flex-row sm:items-center">
              <div className="min-w-0 flex-1">
                <h3 className="font-semibold">{o.productName}</h3>
                <p className="text-sm text-base-content/70">
                  {o.orderQty} × {formatPrice(o.productPrice, o.currency)} ={" "}
                  <strong className="text-base-content">{formatPrice(o.total, o.currency)}</strong>{" "}
                  · ordered {formatDate(o.createdAt)}
                </p>
                {o.status === "unpaid" && (
                  <p className="text-xs text-base-content/70">
                    Stock held until {formatDateTime(o.holdExpiresAt)}
                  </p>
                )}
                {o.transactionId && (
                  <p className="text-xs break-all text-base-content/70">
                    Transaction id: <span className="font-mono">{o.transactionId}</span>
                  </p>
                )}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <OrderStatusBadge status={o.status} />
                {o.status === "unpaid" && (
                  <>
                    <Link to={paths.payment.to(o._id)} className="btn btn-sm btn-primary">
                      Pay
                    </Link>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline btn-error"
                      onClick={() => setToDelete(o)}
                    >
                      Delete
                    </button>
                  </>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={toDelete !== undefined}
        title="Delete this order?"
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.error?.message}
        onCancel={() => {
          remove.reset();
          setToDelete(undefined);
        }}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete._id, {
            onSuccess: () => {
              notify.success("Your order is deleted");
              setToDelete(undefined);
            },
          })
        }
      >
        {toDelete && (
          <p>
            The order for {toDelete.orderQty} × {toDelete.productName} will be deleted and its stock
            released. This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
