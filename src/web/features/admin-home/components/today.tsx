import { useState, type ReactNode } from "react";
import type { AdminHome, LowStockProduct } from "#contract/admin-home";
import { paths } from "#contract/paths";
import { typedNumberOrNull } from "../../../components/form-field";
import { Link } from "../../../components/link";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { ApiError } from "../../../lib/api-client";
import { formatDateTime, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useAdminHome, useSetReorderLevel } from "../api/admin-home";
import { LowStockEmailForm } from "./low-stock-email-form";

type OrderRow = AdminHome["toShip"]["oldest"][number];

/** One thing waiting: its count, what it is, and the page where it is handled. */
function Waiting(props: { count: number; label: string; to: string; children?: ReactNode }) {
  return (
    <section
      aria-label={props.label}
      className="card border border-base-300 bg-base-100"
      data-testid="today-item"
    >
      <div className="card-body gap-2 p-4">
        <Link to={props.to} className="link-hover flex items-baseline gap-2">
          <span className="text-3xl font-bold tabular-nums">{props.count}</span>
          <span className="font-medium">{props.label}</span>
        </Link>
        {props.children}
      </div>
    </section>
  );
}

function OrderList(props: { orders: OrderRow[]; when: string }) {
  if (props.orders.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {props.orders.map((o) => (
        <li key={o.id} className="flex flex-wrap justify-between gap-x-2">
          <Link to={paths.order.to(o.id)} className="link font-mono">
            {formatOrderNumber(o)}
          </Link>
          <span className="truncate">{o.customerName}</span>
          <span className="tabular-nums">{formatPrice(o.totalCents / 100, o.currency)}</span>
          <span className="w-full text-base-content/70">
            {props.when} <time dateTime={o.at}>{formatDateTime(o.at)}</time>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A low product's reorder level, changed in place (empty: back to the default). */
function ReorderLevel({ product }: { product: LowStockProduct }) {
  const [value, setValue] = useState(product.reorderLevelSet ? String(product.reorderLevel) : "");
  const save = useSetReorderLevel();
  const id = `reorder-${product.id}`;
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const reorderLevel = typedNumberOrNull(value);
        save.mutate(
          { productId: product.id, reorderLevel },
          {
            onSuccess: () => notify.success(`Reorder level of ${product.partNumber} saved`),
            onError: (err) =>
              notify.error(err instanceof ApiError ? err.message : "Could not save"),
          },
        );
      }}
    >
      <label htmlFor={id} className="sr-only">
        Reorder level of {product.partNumber}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        className="input input-sm w-24"
        placeholder={String(product.reorderLevel)}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className="btn btn-sm" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}

/** A part low on stock as a row of Today's lists: its name, linked to `to`, and its number. */
function LowPart(props: {
  part: { name: string; partNumber: string };
  to: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 p-3"
      data-testid={props.testId}
    >
      <div className="min-w-0">
        <Link to={props.to} className="link font-medium">
          {props.part.name}
        </Link>
        <p className="font-mono text-sm text-base-content/75">{props.part.partNumber}</p>
      </div>
      {props.children}
    </li>
  );
}

function LowStock({ low }: { low: AdminHome["lowStock"] }) {
  return (
    <section aria-labelledby="low-stock-heading" className="flex flex-col gap-2">
      <h3 id="low-stock-heading" className="text-lg font-semibold">
        Low stock ({low.count})
      </h3>
      {low.count === 0 ? (
        <p className="text-base-content/75">
          Every product has stock at or above its reorder level.
        </p>
      ) : (
        <>
          <p className="text-sm text-base-content/75">
            Stock below the reorder level, least first. A level left empty is twice the minimum
            order.
          </p>
          <ul className="divide-y divide-base-300 rounded-box border border-base-300">
            {low.products.map((p) => (
              <LowPart key={p.id} part={p} to={paths.product.to(p.id)} testId="low-stock-product">
                <p className="tabular-nums">
                  <span className="font-semibold">{p.availableQuantity}</span> in stock · reorder at{" "}
                  {p.reorderLevel}
                </p>
                <ReorderLevel key={`${p.id}:${p.reorderLevel}`} product={p} />
              </LowPart>
            ))}
          </ul>
          {low.count > low.products.length && (
            <p className="text-sm text-base-content/75">
              And {low.count - low.products.length} more.{" "}
              <Link to={paths.manageProducts} className="link">
                Manage all products
              </Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Parts below the reorder level set at a location (docs/inventory.md): shown only when there are
 * some, as a store with one location sets none.
 */
function LowAtLocations({ low }: { low: AdminHome["lowAtLocations"] }) {
  if (low.count === 0) return null;
  return (
    <section aria-labelledby="low-at-locations-heading" className="flex flex-col gap-2">
      <h3 id="low-at-locations-heading" className="text-lg font-semibold">
        Low at locations ({low.count})
      </h3>
      <p className="text-sm text-base-content/75">
        Stock on sale at a location below the reorder level set there, least first.
      </p>
      <ul className="divide-y divide-base-300 rounded-box border border-base-300">
        {low.rows.map((r) => (
          <LowPart
            key={`${r.productId}:${r.location}`}
            part={r}
            to={paths.locationStock.to(r.productId)}
            testId="low-at-location"
          >
            <p className="tabular-nums">
              {r.location}: <span className="font-semibold">{r.onSale}</span> on sale · reorder at{" "}
              {r.reorderLevel}
            </p>
          </LowPart>
        ))}
      </ul>
      {low.count > low.rows.length && (
        <p className="text-sm text-base-content/75">And {low.count - low.rows.length} more.</p>
      )}
    </section>
  );
}

/** The admin's home: what needs doing today, each a link to where it is handled. */
type RefundToRetry = AdminHome["refundsToRetry"]["oldest"][number];

/**
 * `refundsToRetry` shows the oldest refunds that did not go through, each with its Retry (given
 * by the page: the payments feature retries them).
 */
export function Today(props: { refundsToRetry?: (refunds: RefundToRetry[]) => ReactNode }) {
  const { data, error, isPending } = useAdminHome();
  return (
    <section aria-labelledby="today-heading" className="flex flex-col gap-4">
      <h2 id="today-heading" className="text-2xl font-bold">
        Today
      </h2>
      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <QueryError error={error} />
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            <Waiting
              count={data.toShip.count}
              label="Paid orders to ship"
              to={`${paths.manageOrders}?status=paid`}
            >
              <OrderList orders={data.toShip.oldest} when="Paid" />
            </Waiting>
            <Waiting
              count={data.expiringHolds.count}
              label={`Holds ending within ${Math.round(data.expiringHolds.withinMinutes / 60)} hours`}
              to={`${paths.manageOrders}?status=unpaid`}
            >
              <OrderList orders={data.expiringHolds.soonest} when="Hold ends" />
            </Waiting>
            <Waiting count={data.reviewsToModerate} label="Reviews to moderate" to={paths.review} />
            <Waiting count={data.returnsToHandle} label="Returns to handle" to={paths.returns} />
            <Waiting
              count={data.quotesToPrice}
              label="Quotes to price"
              to={`${paths.quotes}?status=requested`}
            />
            <Waiting
              count={data.approvalsWaiting}
              label="Orders awaiting approval"
              to={paths.approvals}
            />
            <Waiting
              count={data.backorders.units}
              label={data.backorders.units === 1 ? "Unit on backorder" : "Units on backorder"}
              to={paths.backorders}
            >
              {data.backorders.lines > 0 && (
                <p className="text-sm text-base-content/75">
                  In {data.backorders.lines} order {data.backorders.lines === 1 ? "line" : "lines"},
                  waiting for supply
                </p>
              )}
            </Waiting>
            <Waiting count={data.refundsDue} label="Payments to refund" to={paths.manageOrders} />
            <Waiting
              count={data.refundsToRetry.count}
              label="Refunds to retry"
              to={paths.manageOrders}
            >
              {data.refundsToRetry.oldest.length > 0 &&
                props.refundsToRetry?.(data.refundsToRetry.oldest)}
            </Waiting>
          </div>
          <LowStock low={data.lowStock} />
          <LowAtLocations low={data.lowAtLocations} />
          <LowStockEmailForm />
        </>
      )}
    </section>
  );
}
