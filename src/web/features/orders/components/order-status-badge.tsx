import type { Order } from "#contract/orders";

const styles: Record<Order["status"], { label: string; className: string }> = {
  unpaid: { label: "Unpaid", className: "badge-warning" },
  paid: { label: "Paid", className: "badge-success" },
  shipped: { label: "Shipped", className: "badge-info" },
  cancelled: { label: "Cancelled", className: "badge-ghost" },
};

/** The order's status, and a TEST mark when it was paid with a test card (no money taken). */
export function OrderStatusBadge({
  status,
  testPayment = false,
}: {
  status: Order["status"];
  testPayment?: boolean;
}) {
  const s = styles[status];
  return (
    <>
      <span className={`badge ${s.className}`}>{s.label}</span>
      {testPayment && (
        <span className="badge badge-outline badge-error ml-1" title={TEST_PAYMENT_TITLE}>
          TEST
        </span>
      )}
    </>
  );
}

const TEST_PAYMENT_TITLE = "Paid with a test card: no money was taken";
