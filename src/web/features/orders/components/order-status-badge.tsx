import { orderStatusLabels, type Order } from "#contract/orders";
import { PARTIALLY_SHIPPED_LABEL } from "#contract/shipments";

const styles: Record<Order["status"], string> = {
  unpaid: "badge-warning",
  awaiting_approval: "badge-warning badge-outline",
  paid: "badge-success",
  shipped: "badge-info",
  cancelled: "badge-ghost",
};

/**
 * The order's status, "Partially shipped" when some of a paid order's parcels have left, and a
 * TEST mark when it was paid with a test card (no money taken).
 */
export function OrderStatusBadge({
  status,
  testPayment = false,
  partiallyShipped = false,
}: {
  status: Order["status"];
  testPayment?: boolean;
  partiallyShipped?: boolean;
}) {
  return (
    <>
      <span className={`badge ${styles[status]}`}>{orderStatusLabels[status]}</span>
      {partiallyShipped && (
        <span className="badge badge-info badge-outline ml-1">{PARTIALLY_SHIPPED_LABEL}</span>
      )}
      {testPayment && (
        <span className="badge badge-outline badge-error ml-1" title={TEST_PAYMENT_TITLE}>
          TEST
        </span>
      )}
    </>
  );
}

const TEST_PAYMENT_TITLE = "Paid with a test card: no money was taken";
