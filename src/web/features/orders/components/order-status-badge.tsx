import type { Order } from "#contract/orders";

const styles: Record<Order["status"], { label: string; className: string }> = {
  unpaid: { label: "Unpaid", className: "badge-warning" },
  paid: { label: "Paid", className: "badge-success" },
  shipped: { label: "Shipped", className: "badge-info" },
  cancelled: { label: "Cancelled", className: "badge-ghost" },
};

export function OrderStatusBadge({ status }: { status: Order["status"] }) {
  const s = styles[status];
  return <span className={`badge ${s.className}`}>{s.label}</span>;
}
