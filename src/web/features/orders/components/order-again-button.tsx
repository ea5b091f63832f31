import { plural } from "#contract/count";
import { useNavigate } from "react-router";
import type { Order } from "#contract/orders";
import { paths } from "#contract/paths";
import { formatOrderNumber } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useReorder } from "../api/reorder";

/**
 * "Order again": the order's parts go into the cart at today's prices; what changed since (a
 * price, the stock, a part no longer sold) is said, then the cart opens.
 */
export function OrderAgainButton({
  order,
  className = "btn btn-sm btn-outline",
}: {
  order: Pick<Order, "_id" | "number">;
  className?: string;
}) {
  const orderId = order._id;
  const reorder = useReorder();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={className}
      disabled={reorder.isPending}
      aria-label={`Order again: order ${formatOrderNumber(order)}`}
      onClick={() =>
        reorder.mutate(orderId, {
          onSuccess: (result) => {
            if (result.added > 0) {
              notify.success(`${plural(result.added, "part")} put in your cart`);
            }
            for (const change of result.changes) notify.error(change.message);
            if (result.added > 0) navigate(paths.cart);
          },
          onError: (err) => notify.error(err.message),
        })
      }
    >
      Order again
    </button>
  );
}
