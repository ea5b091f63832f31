import { dayWords } from "#contract/calendar";
import { plural } from "#contract/count";
import { lazy, Suspense } from "react";
import { orderStatuses, orderStatusLabels, type OrdersOverview } from "#contract/orders";
import { QueryError } from "../../../components/query-error";
import { PageSpinner, Spinner } from "../../../components/spinner";
import { formatPrice } from "../../../lib/format";
import { useOrdersOverview } from "../api/orders-admin";

// The chart library is loaded with this panel only, never by public pages.
const OrdersChart = lazy(async () => ({ default: (await import("./orders-chart")).OrdersChart }));

/** The chart's days for a screen reader: "6 Dec 2026: 1 order, $44.36; …". */
export const chartWords = ({ days, currency }: Pick<OrdersOverview, "days" | "currency">) =>
  days
    .map(
      (d) =>
        `${dayWords(d.date)}: ${plural(d.orders, "order")}, ${formatPrice(d.revenue, currency)}`,
    )
    .join("; ");

export function OrdersOverviewPanel() {
  const { data, error, isPending } = useOrdersOverview();
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  const orders30 = data.days.reduce((n, d) => n + d.orders, 0);
  const revenue30 = data.days.reduce((n, d) => n + d.revenue, 0);
  return (
    <section aria-labelledby="overview-heading" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h2 id="overview-heading" className="card-title">
          Last 30 days
        </h2>
        <dl
          className="stats stats-vertical w-full bg-base-200 sm:stats-horizontal"
          data-testid="status-counts"
        >
          {orderStatuses.map((s) => (
            <div key={s} className="stat">
              <dt className="stat-title text-base-content/80">{orderStatusLabels[s]}</dt>
              <dd className="stat-value text-2xl">{data.byStatus[s]}</dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-base-content/70">
          {plural(orders30, "order")} placed, {formatPrice(revenue30, data.currency)} received.
        </p>
        <Suspense
          fallback={
            <div className="flex min-h-[19rem] items-center justify-center">
              <Spinner />
            </div>
          }
        >
          <OrdersChart days={data.days} currency={data.currency} />
        </Suspense>
        <p className="sr-only">{chartWords(data)}</p>
      </div>
    </section>
  );
}
