import type { Order } from "../../contract/orders";
import { shipmentMessages } from "../../contract/shipments";
import { shippingCarrierLabels, trackingMessages } from "../../contract/shipping-carriers";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { HttpError, notFound, unprocessable } from "../errors";
import type { Inventory } from "../inventory/service";
import type { OrderNotifier } from "../orders/notifier";
import { toOrder, type OrderService } from "../orders/service";
import {
  cancelHoldingOrder,
  cancelPaidOrder,
  linesOf,
  lockOrder,
  markOrderShipped,
  type ShipmentTracking,
} from "../orders/state";
import { cancellationRefundOf, insertCancellationRefund } from "../returns/refunds";
import { shipTheRest } from "../shipments/service";
import { backordersOf } from "../inventory/backorders";
import { backorderMessages } from "../../contract/backorders";
import type { Refunds } from "./refund";

/**
 * An admin ships or cancels an order (Manage All Orders), along the allowed transitions only:
 * paid → shipped (the whole order, or what is left of it, as one shipment); unpaid or awaiting
 * approval → cancelled (the stock returns, its open payment is cancelled at the gateway); paid
 * and not partly shipped → cancelled (the stock returns, refunded in full with a credit note).
 * Asked again (a double click) it answers the same; a cancelled paid order whose refund has not
 * gone through has it tried again (the same idempotency key: it refunds once).
 */
export function createOrderStatus(deps: {
  inventory: Inventory;
  refunds: Refunds;
  payments: { cancelIntentsOf(orderId: string): Promise<void> };
  orders: Pick<OrderService, "cancelHoldsOfAccount">;
  notify?: OrderNotifier;
}) {
  const { inventory, refunds, payments, notify } = deps;

  async function changeStatus(
    id: string,
    next: "shipped" | "cancelled",
    actor?: AuditActor,
    /** Shipping only: the carrier and tracking number, stored on the order and emailed. */
    tracking?: ShipmentTracking,
  ): Promise<Order> {
    if (tracking && next !== "shipped") {
      throw new HttpError(400, "validation", trackingMessages.notWhenCancelling);
    }
    let refundId: string | undefined;
    const order = await inventory.transaction(async (stock, tx) => {
      const row = await lockOrder(tx, id);
      if (!row) throw notFound("Order not found");
      if (row.status === next) {
        // Asked again (a double click): the same answer, unless it would change the tracking.
        const differs =
          tracking !== undefined &&
          (tracking.carrier !== row.carrier || tracking.trackingNumber !== row.trackingNumber);
        if (differs) {
          throw unprocessable("This order has already shipped; its tracking cannot be changed");
        }
        if (next === "cancelled") {
          const refund = await cancellationRefundOf(tx, id);
          if (refund && refund.status !== "succeeded") refundId = refund.id;
        }
        return toOrder(row, await linesOf(tx, [id]));
      }
      const paidCancel = next === "cancelled" && row.status === "paid";
      const allowed =
        next === "shipped"
          ? row.status === "paid"
          : row.status === "unpaid" || row.status === "awaiting_approval" || paidCancel;
      if (!allowed) {
        throw unprocessable(
          next === "shipped"
            ? `Only paid orders can be shipped; this one is ${row.status}`
            : `Only unpaid or paid (not shipped) orders can be cancelled; this one is ${row.status}`,
        );
      }
      // Some lines already shipped (docs/shipments.md): those are returned, not cancelled.
      if (paidCancel && row.partlyShippedAt) throw unprocessable(shipmentMessages.cannotCancel);
      let changed;
      if (next === "shipped") {
        // Units waiting for supply cannot go with it (docs/inventory.md "Backorders").
        const waiting = ((await backordersOf(tx, [id])).get(id) ?? []).reduce(
          (n, b) => n + b.waiting,
          0,
        );
        if (waiting > 0) throw unprocessable(backorderMessages.stillWaiting(waiting));
        const shipped = (await markOrderShipped(tx, id, new Date(), tracking ?? null))!;
        await shipTheRest(tx, id, tracking ?? null, shipped.shippedAt!);
        changed = { row: shipped, items: await linesOf(tx, [id]) };
      } else if (paidCancel) {
        changed = await cancelPaidOrder(tx, stock, id);
        refundId = (await insertCancellationRefund(tx, row, refunds.gatewayName)).id;
      } else {
        changed = await cancelHoldingOrder(tx, stock, id, "store");
      }
      if (actor) {
        await recordAdminAction(tx, {
          actor,
          action: next === "shipped" ? "order.ship" : "order.cancel",
          target: { type: "order", id },
          summary:
            next === "shipped"
              ? `Shipped the order of ${row.orderEmail}${tracking ? ` with ${shippingCarrierLabels[tracking.carrier]}, tracking ${tracking.trackingNumber}` : " without tracking"}`
              : `Cancelled the order of ${row.orderEmail}`,
        });
      }
      const view = toOrder(changed.row, changed.items);
      if (next === "shipped") await notify?.shipped(tx, view, changed.row.customerName);
      else await notify?.cancelledByStore(tx, view, changed.row.customerName);
      return view;
    });
    // Its open payment can no longer be paid (a late one would be kept as refund due).
    if (order.status === "cancelled") await payments.cancelIntentsOf(order._id);
    // A paid order cancelled: the money goes back through the gateway, with a credit note.
    if (refundId) await refunds.run(refundId);
    return order;
  }

  /**
   * Admin: cancels every order of one account that holds stock ("Cancel holds"); their stock
   * comes back and their open payments are cancelled at the gateway.
   */
  async function cancelHoldsOfAccount(userId: string, actor?: AuditActor): Promise<number> {
    const cancelled = await deps.orders.cancelHoldsOfAccount(userId, actor);
    for (const id of cancelled) await payments.cancelIntentsOf(id);
    return cancelled.length;
  }

  return { changeStatus, cancelHoldsOfAccount };
}

export type OrderStatusChanges = ReturnType<typeof createOrderStatus>;
