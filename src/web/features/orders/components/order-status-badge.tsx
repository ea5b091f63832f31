import { orderStatusLabels, type Order } from "#contract/orders";

const styles: Record<Order["status"], string> = {
  unpaid: "badge-warning",
  awaiting_approval: "badge-warning badge-outline",
  paid: "badge-success",
  shipped: "badge-info",
  cancelled: "badge-ghost",
};

/** The order's status, and a TEST mark when it was paid with a test card (no money taken). */
export function OrderStatusBadge({
  status,
  testPayment = false,
}: {
  status: Order["status"];
  testPayment?: boolean;
}) {
  return (
    <>
      <span className={`badge ${styles[status]}`}>{orderStatusLabels[status]}</span>
      {testPayment && (
        <span className="badge badge-outline badge-error ml-1" title={TEST_PAYMENT_TITLE}>
          TEST
        </span>
      )}
    </>
  );
}

const TEST_PAYMENT_TITLE = "Paid with a test card: no money was taken";
