import { useState } from "react";
import { useParams } from "react-router";
import { Link } from "../../components/link";
import type { Order } from "#contract/orders";
import { useOrder } from "../../features/orders/api/orders";
import { OrderStatusBadge } from "../../features/orders/components/order-status-badge";
import { PaymentPanel } from "../../features/payments/components/payment-panel";
import { PageSpinner } from "../../components/spinner";
import { QueryError } from "../../components/query-error";
import { usePageTitle } from "../../components/page-title";
import { formatPrice } from "../../lib/format";
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
        <h1 className="text-2xl font-bold">Pay for {order.productName}</h1>
        <dl className="grid grid-cols-2 gap-1 rounded-box bg-base-200 p-4 text-sm">
          <dt>Quantity</dt>
          <dd className="text-right">{order.orderQty}</dd>
          <dt>Unit price</dt>
          <dd className="text-right">{formatPrice(order.productPrice, order.currency)}</dd>
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold">{formatPrice(order.total, order.currency)}</dd>
          <dt>Status</dt>
          <dd className="text-right">
            <OrderStatusBadge status={order.status} testPayment={order.testPayment} />
          </dd>
        </dl>
        {payable ? (
          <PaymentPanel order={order} />
        ) : (
          <p>
            {order.status === "cancelled"
              ? "This order was cancelled, so it cannot be paid."
              : order.status === "awaiting_approval"
                ? APPROVAL_FIRST
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
