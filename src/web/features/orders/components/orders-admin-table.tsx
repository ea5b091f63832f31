import { plural } from "#contract/count";
import { PageSection } from "../../../components/page-title";
import { useState } from "react";
import { notify } from "../../../lib/notify";
import {
  orderStatusChangeSchema,
  orderStatuses,
  orderStatusLabels,
  type AdminOrder,
} from "#contract/orders";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { paymentWords } from "#contract/payment-words";
import { OrderStatusBadge } from "./order-status-badge";
import { BreakableEmail, ListTable, type Column } from "../../../components/data-table";
import { SearchForm } from "../../../components/search-form";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { formatDate, formatOrderNumber, formatPrice } from "../../../lib/format";
import { paths } from "#contract/paths";
import { Link } from "../../../components/link";
import { useAllOrders, useChangeOrderStatus } from "../api/orders-admin";
import { InvoiceLink, isInvoiced } from "./invoice-link";
import { ShipmentFields, type ShipmentInput } from "./shipment-fields";
import { ListFilter } from "../../../components/list-filter";
import { SelectOptions } from "../../../components/select-options";

const PAGE_SIZE = 20;

type PendingChange = { order: AdminOrder; status: "shipped" | "cancelled" };

const noShipment: ShipmentInput = { carrier: "", trackingNumber: "" };

/**
 * Manage All Orders: every order, newest first, with status filter, search and actions; the
 * filter, search and page are kept in the URL like the other lists.
 */
export function OrdersAdminTable() {
  const list = useListPage(PAGE_SIZE);
  const status = list.choice("status", orderStatuses);
  const { q } = list;
  const [pending, setPending] = useState<PendingChange>();
  const [shipment, setShipment] = useState<ShipmentInput>(noShipment);
  const [shipmentErrors, setShipmentErrors] = useState<
    Partial<Record<keyof ShipmentInput, string>>
  >({});
  const ask = (next: PendingChange) => {
    change.reset();
    setShipment(noShipment);
    setShipmentErrors({});
    setPending(next);
  };
  /** The request for the pending change, checked here with the server's own rules first. */
  const confirm = (p: PendingChange) => {
    const typed =
      p.status === "shipped"
        ? {
            status: p.status,
            ...(shipment.carrier ? { carrier: shipment.carrier } : {}),
            ...(shipment.trackingNumber.trim() ? { trackingNumber: shipment.trackingNumber } : {}),
          }
        : { status: p.status };
    const parsed = orderStatusChangeSchema.safeParse(typed);
    if (!parsed.success) {
      const errors: Partial<Record<keyof ShipmentInput, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === "carrier" ? "carrier" : "trackingNumber";
        errors[field] ??= issue.message;
      }
      setShipmentErrors(errors);
      return;
    }
    setShipmentErrors({});
    change.mutate(
      { id: p.order._id, ...parsed.data },
      {
        onSuccess: () => {
          notify.success(
            p.status === "shipped" ? "The order is shipped" : "The order is cancelled",
          );
          setPending(undefined);
        },
      },
    );
  };
  const change = useChangeOrderStatus();
  const answer = useAllOrders({ ...list.query, status });
  const states = useListStates(list, answer, (total) => plural(total, "order"));

  const columns: Column<AdminOrder>[] = [
    {
      header: "Order",
      role: "title",
      cell: (o) => (
        <Link to={paths.order.to(o._id)} className="link link-hover">
          {o.productName}
          {o.items.length > 1 && ` and ${o.items.length - 1} more`}
          <span className="block text-xs font-normal text-base-content/75">
            {formatOrderNumber(o)}
          </span>
        </Link>
      ),
    },
    {
      header: "Customer",
      cell: (o) => (
        <div className="max-md:text-right">
          <div className="font-medium">{o.customerName}</div>
          <div className="text-xs text-base-content/75">
            <BreakableEmail email={o.orderEmail} />
          </div>
        </div>
      ),
    },
    { header: "Placed", cell: (o) => formatDate(o.createdAt) },
    { header: "Qty", numeric: true, cell: (o) => o.orderQty },
    { header: "Total", numeric: true, cell: (o) => formatPrice(o.total, o.currency) },
    {
      header: "Status",
      cell: (o) => (
        <div className="flex flex-col gap-1 max-md:items-end">
          <span>
            <OrderStatusBadge order={o} />
          </span>
          {o.account && (
            <span className="text-xs text-base-content/75" data-testid="order-payment">
              {paymentWords(o).line}
            </span>
          )}
        </div>
      ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (o) => (
        <>
          {o.status === "paid" && (
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={() => ask({ order: o, status: "shipped" })}
            >
              Mark shipped
            </button>
          )}
          {o.status === "unpaid" && (
            <button
              type="button"
              className="btn btn-sm btn-outline btn-error"
              onClick={() => ask({ order: o, status: "cancelled" })}
            >
              Cancel order
            </button>
          )}
          {isInvoiced(o) && <InvoiceLink order={o} />}
        </>
      ),
    },
  ];

  return (
    <PageSection headingId="orders-heading" title="Orders">
      <SearchForm
        label="Search orders"
        placeholder="Customer email or product"
        value={q}
        onSearch={list.search}
      >
        <ListFilter
          label="Status"
          value={status}
          onChange={(value) => list.refine({ status: value })}
        >
          <SelectOptions empty="All" values={orderStatuses} labels={orderStatusLabels} />
        </ListFilter>
      </SearchForm>

      <ListTable
        {...states}
        filtered={Boolean(q || status)}
        empty="There are no orders yet."
        noMatch="No orders match your search."
        label="Orders"
        columns={columns}
        rowKey={(o) => o._id}
        rowTestId="admin-order"
      />

      <ConfirmDialog
        open={pending !== undefined}
        title={pending?.status === "shipped" ? "Mark this order shipped?" : "Cancel this order?"}
        confirmLabel={pending?.status === "shipped" ? "Mark shipped" : "Cancel order"}
        tone={pending?.status === "shipped" ? "positive" : "danger"}
        busy={change.isPending}
        error={change.error?.message}
        onCancel={() => {
          change.reset();
          setPending(undefined);
        }}
        onConfirm={() => pending && confirm(pending)}
      >
        {pending && (
          <>
            <p>
              Order {formatOrderNumber(pending.order)}:{" "}
              {pending.order.items.map((l) => `${l.qty} × ${l.productName}`).join(", ")} for{" "}
              {pending.order.orderEmail}
              {pending.status === "cancelled" ? ": the stock goes back on sale." : "."}
            </p>
            {pending.status === "shipped" && (
              <p className="mt-2" data-testid="ship-to">
                Ship to: <span className="whitespace-pre-line">{pending.order.Address}</span> ·{" "}
                {pending.order.phonrNo}
              </p>
            )}
            {pending.status === "shipped" && (
              <ShipmentFields value={shipment} errors={shipmentErrors} onChange={setShipment} />
            )}
          </>
        )}
      </ConfirmDialog>
    </PageSection>
  );
}
