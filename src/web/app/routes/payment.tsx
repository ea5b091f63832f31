import { Fragment, useState } from "react";
import { useParams } from "react-router";
import { Link } from "../../components/link";
import type { Order } from "#contract/orders";
import { useOrder } from "../../features/orders/api/orders";
import { OrderStatusBadge } from "../../features/orders/components/order-status-badge";
import { PaymentPanel } from "../../features/payments/components/payment-panel";
import { PageSpinner } from "../../components/spinner";
import { QueryError } from "../../components/query-error";
import { usePageTitle } from "../../components/page-title";
import { formatOrderNumber, formatPrice } from "../../lib/format";
import { paymentWords } from "#contract/payment-words";
import { paths } from "#contract/paths";

export function PaymentRoute() {
  usePageTitle("Payment");
  const { id = "" } = useParams();
  const { data: order, error, isPending } = useOrder(id);
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  return <PaymentPage order={order} />;
}

const APPROVAL_FIRST =
  "This order is awaiting approval by an owner of your company; you can pay once it is approved.";

function PaymentPage({ order }: { order: Order }) {
  // Decided when the page opens: once paid here, the success message stays on screen even
  // though the refreshed order now says "paid".
  const [payable] = useState(order.status === "unpaid");
  return (
    <div className="card mx-auto max-w-xl border border-base-300 bg-base-100">
      <div className="card-body gap-4">
        <h1 className="text-2xl font-bold">
          {order.items.length === 1
            ? `Pay for ${order.productName}`
            : `Pay for order ${formatOrderNumber(order)}`}
        </h1>
        <PaymentSummary order={order} />
        {payable ? (
          <PaymentPanel order={order} />
        ) : (
          <p>
            {order.status === "cancelled"
              ? "This order was cancelled, so it cannot be paid."
              : order.status === "awaiting_approval"
                ? APPROVAL_FIRST
                : order.account
                  ? `${paymentWords(order).line}: nothing to pay by card.`
                  : `This order is paid (transaction id ${order.transactionId}).`}{" "}
            <Link to={paths.myItems} className="link link-primary">
              Back to My Items
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * What the card is charged for, wherever the page is reached from (an order, a checkout, an
 * accepted quote): every line with its quantity, unit price and amount, core deposits, shipping,
 * tax and the total, so the figures add up on the page.
 */
function PaymentSummary({ order }: { order: Order }) {
  const money = (n: number) => formatPrice(n, order.currency);
  const row = (label: string, amount: number, testId?: string, strong = false) => (
    <>
      <dt className={strong ? "font-semibold" : undefined}>{label}</dt>
      <dd className={`text-right ${strong ? "font-semibold" : ""}`} data-testid={testId}>
        {money(amount)}
      </dd>
    </>
  );
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-box bg-base-200 p-4 text-sm">
      {order.items.map((line, i) => (
        <Fragment key={i}>
          <dt data-testid="payment-line">
            {line.productName}
            <span className="block text-xs text-base-content/75">
              {line.qty} × {money(line.unitPrice)}
            </span>
          </dt>
          <dd className="text-right">{money(line.lineTotal)}</dd>
          {line.coreDeposit > 0 &&
            row(`Core deposit: ${line.productName}`, line.coreDeposit * line.qty)}
        </Fragment>
      ))}
      <div className="col-span-2 my-1 border-t border-base-300" />
      {row("Subtotal", order.subtotal, "payment-subtotal")}
      {row(
        order.shippingMethod ? `Shipping (${order.shippingMethod})` : "Shipping",
        order.shipping,
        "payment-shipping",
      )}
      {row(
        order.taxName ? `${order.taxName} (${order.taxRate} %)` : "Tax",
        order.tax,
        "payment-tax",
      )}
      {row("Total", order.total, "payment-total", true)}
      <dt>Status</dt>
      <dd className="text-right">
        <OrderStatusBadge order={order} />
      </dd>
    </dl>
  );
}
