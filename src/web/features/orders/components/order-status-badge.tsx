import type { Order } from "#contract/orders";
import { paymentWords } from "#contract/payment-words";
import { PARTIALLY_SHIPPED_LABEL } from "#contract/shipments";

const styles: Record<Order["status"], string> = {
  unpaid: "badge-warning",
  awaiting_approval: "badge-warning badge-outline",
  paid: "badge-success",
  shipped: "badge-info",
  cancelled: "badge-ghost",
};

/**
 * The order's status in its money words ("On account" until an invoice on account is paid:
 * `paymentWords`), "Partially shipped" when some of a paid order's parcels have left, and a TEST
 * mark when it was paid with a test card (no money taken).
 */
export function OrderStatusBadge({
  order,
}: {
  order: Pick<Order, "status" | "account" | "testPayment"> & { partiallyShipped?: boolean };
}) {
  const words = paymentWords(order);
  const owing = order.status === "paid" && order.account !== null && !order.account.settled;
  return (
    <>
      <span
        className={`badge ${owing ? "badge-primary badge-outline" : styles[order.status]}`}
        data-testid="order-status"
      >
        {words.badge}
      </span>
      {order.partiallyShipped && (
        <span className="badge badge-info badge-outline ml-1">{PARTIALLY_SHIPPED_LABEL}</span>
      )}
      {order.testPayment && (
        <span className="badge badge-outline badge-error ml-1" title={TEST_PAYMENT_TITLE}>
          TEST
        </span>
      )}
    </>
  );
}

const TEST_PAYMENT_TITLE = "Paid with a test card: no money was taken";
