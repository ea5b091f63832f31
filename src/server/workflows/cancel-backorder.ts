import { backorderMessages, type BackorderCancelled } from "../../contract/backorders";
import { orderNumberText } from "../../contract/orders";
import { paths } from "../../contract/paths";
import { ON_ACCOUNT } from "../../contract/terms";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { DbOrTx } from "../db/database";
import { notFound, unprocessable } from "../errors";
import { backordersOf } from "../inventory/backorders";
import type { Inventory } from "../inventory/service";
import { hello, layout, STORE } from "../mail/layout";
import type { Mailer } from "../mail/mailer";
import { centsToUnits, formatCents } from "../money";
import {
  cancelPaidOrder,
  linesOf,
  lockOrder,
  markOrderShipped,
  type OrderItemRow,
  type OrderRow,
} from "../orders/state";
import { insertBackorderRefund, insertCancellationRefund } from "../returns/refunds";
import { shippedByLine } from "../shipments/service";
import type { Refunds } from "./refund";

/** Who cancels: the order's buyer, or an admin (audited). */
export type BackorderCanceller = AuditActor & { role: string };

/**
 * A buyer or an admin cancels the units of a paid order's line still waiting for supply
 * (docs/inventory.md "Cancelling backordered units"), in one transaction: the units leave the
 * product's queue (the later ones are dated again), their price, core deposit and tax are
 * refunded with a credit note, and the buyer is emailed. When nothing else of the order is left
 * to ship, the whole order is cancelled and refunded instead, shipping included; when the rest
 * has all shipped, the order is shipped. Unpaid orders are refused: their buyer deletes them.
 */
export function createBackorderCancel(deps: {
  inventory: Inventory;
  refunds: Refunds;
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
}) {
  const { inventory, refunds } = deps;

  async function cancel(
    orderId: string,
    line: number,
    who: BackorderCanceller,
  ): Promise<BackorderCancelled> {
    const done = await inventory.transaction(async (stock, tx) => {
      const order = await lockOrder(tx, orderId);
      if (!order || (order.userId !== who.id && who.role !== "admin")) {
        throw notFound("Order not found");
      }
      if (order.status === "unpaid" || order.status === "awaiting_approval") {
        throw unprocessable(backorderMessages.cancelUnpaid);
      }
      if (order.status !== "paid")
        throw unprocessable(backorderMessages.cancelNotNow(order.status));
      const items = await linesOf(tx, [orderId]);
      const item = items.find((i) => i.line === line);
      if (!item) throw unprocessable(backorderMessages.noSuchLine(line));
      const backorders = (await backordersOf(tx, [orderId])).get(orderId) ?? [];
      const waiting = backorders.find((b) => b.line === line)?.waiting ?? 0;
      if (waiting === 0 || !item.productId) {
        throw unprocessable(backorderMessages.nothingWaiting(line));
      }
      const shipped = await shippedByLine(tx, orderId);
      // Units still to ship once these are cancelled: shipped and cancelled ones never will.
      const leftAfter = items.reduce(
        (n, i) =>
          n +
          i.qty -
          (shipped.get(i.line)?.qty ?? 0) -
          (backorders.find((b) => b.line === i.line)?.cancelled ?? 0) -
          (i.line === line ? waiting : 0),
        0,
      );
      const byBuyer = order.userId === who.id;
      let refund;
      let orderCancelled = false;
      let orderShipped = false;
      if (leftAfter === 0 && shipped.size === 0) {
        // Nothing of the order would ever ship: it is cancelled, and all of it refunded.
        await cancelPaidOrder(tx, stock, orderId, byBuyer ? "buyer" : "store");
        refund = await insertCancellationRefund(tx, order, refunds.gatewayName);
        orderCancelled = true;
      } else {
        const units = await stock.cancelBackorder(orderId, line, item.productId);
        if (units !== waiting) throw unprocessable(backorderMessages.nothingWaiting(line));
        refund = await insertBackorderRefund(tx, order, item, units, refunds.gatewayName);
        if (leftAfter === 0) {
          // The rest has all gone: the order is complete, with its last tracking.
          const tracking =
            order.carrier && order.trackingNumber
              ? { carrier: order.carrier, trackingNumber: order.trackingNumber }
              : null;
          orderShipped = !!(await markOrderShipped(tx, orderId, new Date(), tracking));
        }
      }
      if (who.role === "admin" && !byBuyer) {
        await recordAdminAction(tx, {
          actor: who,
          action: "order.cancel-backorder",
          target: { type: "order", id: orderId },
          summary: `Cancelled ${waiting} backordered ${item.productName} on order ${orderNumberText(order.number)}${orderCancelled ? ", which cancelled the order" : ""}`,
        });
      }
      await tellBuyer(tx, order, item, waiting, refund.amountCents, orderCancelled, byBuyer);
      return {
        refundId: refund.id,
        units: waiting,
        amountCents: refund.amountCents,
        orderCancelled,
        orderShipped,
        currency: order.currency,
      };
    });
    // The money goes back through the gateway that took it (or as a credit on account).
    const refund = await refunds.run(done.refundId);
    return {
      line,
      units: done.units,
      refunded: centsToUnits(done.amountCents),
      currency: done.currency,
      refundStatus: refund.status,
      orderCancelled: done.orderCancelled,
      orderShipped: done.orderShipped,
    };
  }

  /** "Backordered parts cancelled": what goes back, and whether the order still ships. */
  async function tellBuyer(
    tx: DbOrTx,
    order: OrderRow,
    item: OrderItemRow,
    units: number,
    amountCents: number,
    orderCancelled: boolean,
    byBuyer: boolean,
  ) {
    if (!deps.mailer) return;
    const number = orderNumberText(order.number);
    const amount = formatCents(amountCents, order.currency);
    const mail = layout({
      subject: `Backordered parts cancelled on ${STORE} order ${number}`,
      greeting: hello(order.customerName),
      paragraphs: [
        `${byBuyer ? "As you asked, we" : "We"} cancelled the parts of your order ${number} that were waiting on backorder: ${units} × ${item.productName}.`,
        orderCancelled
          ? "Nothing else of the order was left to ship, so the whole order is cancelled."
          : "The rest of your order ships as usual.",
        order.paidWith === ON_ACCOUNT
          ? `We credited ${amount} to your account: a credit note follows on your order page.`
          : `We are refunding ${amount} to the card the order was paid with; the credit note is on your order page.`,
      ],
      action: { label: "View your order", url: `${deps.publicUrl}${paths.order.to(order.id)}` },
      publicUrl: deps.publicUrl,
    });
    await deps.mailer.sendIn(
      tx,
      { to: order.orderEmail, ...mail },
      `backorder-cancelled:${order.id}:${item.line}`,
    );
  }

  return { cancel };
}

export type BackorderCancel = ReturnType<typeof createBackorderCancel>;
