import { useState } from "react";
import { notify } from "../../../lib/notify";
import { orderStatuses, type AdminOrder, type OrderStatus } from "#contract/orders";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { OrderStatusBadge } from "./order-status-badge";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { SearchForm } from "../../../components/search-form";
import { PageSpinner } from "../../../components/spinner";
import { formatDate, formatPrice } from "../../../lib/format";
import { useAllOrders, useChangeOrderStatus } from "../api/orders-admin";

const PAGE_SIZE = 20;

type PendingChange = { order: AdminOrder; status: "shipped" | "cancelled" };

/** Manage All Orders: every order, newest first, with status filter, search and actions. */
export function OrdersAdminTable() {
  const [status, setStatus] = useState<OrderStatus | "">("");
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<PendingChange>();
  const change = useChangeOrderStatus();
  const { data, error, isPending } = useAllOrders({
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    status: status || undefined,
    q: q || undefined,
  });

  return (
    <section aria-labelledby="orders-heading" className="flex flex-col gap-4">
      <h2 id="orders-heading" className="text-xl font-bold">
        Orders
      </h2>
      <SearchForm
        label="Search orders"
        placeholder="Customer email or product"
        value={q}
        onSearch={(text) => {
          setQ(text);
          setPage(1);
        }}
      >
        <label>
          <span className="mb-1 block text-sm font-medium">Status</span>
          <select
            className="select select-bordered"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as OrderStatus | "");
              setPage(1);
            }}
          >
            <option value="">All</option>
            {orderStatuses.map((s) => (
              <option key={s} value={s}>
                {s[0]!.toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </label>
      </SearchForm>

      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <QueryError error={error} />
      ) : data.items.length === 0 ? (
        <p className="rounded-box bg-base-200 p-8 text-center text-base-content/70">
          No orders match.
        </p>
      ) : (
        <>
          <div className="overflow-x-auto rounded-box border border-base-300">
            <table className="table">
              <thead>
                <tr>
                  <th>Placed</th>
                  <th>Customer</th>
                  <th>Product</th>
                  <th className="text-right">Qty</th>
                  <th className="text-right">Total</th>
                  <th>Status</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((o) => (
                  <tr key={o._id} data-testid="admin-order">
                    <td className="whitespace-nowrap">{formatDate(o.createdAt)}</td>
                    <td>
                      <div className="font-medium">{o.customerName}</div>
                      <div className="text-xs text-base-content/70">{o.orderEmail}</div>
                    </td>
                    <td>{o.productName}</td>
                    <td className="text-right">{o.orderQty}</td>
                    <td className="text-right">{formatPrice(o.total, o.currency)}</td>
                    <td>
                      <OrderStatusBadge status={o.status} />
                    </td>
                    <td className="text-right">
                      {o.status === "paid" && (
                        <button
                          type="button"
                          className="btn btn-sm btn-primary"
                          onClick={() => setPending({ order: o, status: "shipped" })}
                        >
                          Mark shipped
                        </button>
                      )}
                      {o.status === "unpaid" && (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline btn-error"
                          onClick={() => setPending({ order: o, status: "cancelled" })}
                        >
                          Cancel order
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={page}
            pageCount={Math.max(1, Math.ceil(data.total / PAGE_SIZE))}
            onChange={setPage}
          />
        </>
      )}

      <ConfirmDialog
        open={pending !== undefined}
        title={pending?.status === "shipped" ? "Mark this order shipped?" : "Cancel this order?"}
        confirmLabel={pending?.status === "shipped" ? "Mark shipped" : "Cancel order"}
        busy={change.isPending}
        error={change.error?.message}
        onCancel={() => {
          change.reset();
          setPending(undefined);
        }}
        onConfirm={() =>
          pending &&
          change.mutate(
            { id: pending.order._id, status: pending.status },
            {
              onSuccess: () => {
                notify.success(
                  pending.status === "shipped" ? "The order is shipped" : "The order is cancelled",
                );
                setPending(undefined);
              },
            },
          )
        }
      >
        {pending && (
          <p>
            {pending.order.orderQty} × {pending.order.productName} for {pending.order.orderEmail}
            {pending.status === "cancelled" ? ": the stock goes back on sale." : "."}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
