import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/database";
import { notificationPreferences } from "../notifications/tables";
import { orders } from "../orders/tables";
import type { ShipmentNotifier } from "./service";
import type { Mailer } from "../mail/mailer";
import { hello, layout, STORE, type MailContent } from "../mail/layout";
import { paths } from "../../contract/paths";
import {
  mailTracking,
  orderMailFacts,
  trackingLinks,
  trackingParagraphs,
  viewOrder,
  type MailTracking,
  type OrderMailFacts,
} from "../orders/mail";

/**
 * The email of each shipment (docs/shipments.md): optional like "has shipped" (My Info),
 * queued once per shipment (`order-shipment:<shipment id>`) with the transaction that writes it.
 */
export function createShipmentMail(
  mailer: Pick<Mailer, "sendIn">,
  publicUrl: string,
): ShipmentNotifier {
  async function wanted(tx: DbOrTx, orderId: string) {
    const [row] = await tx
      .select({ orderShipped: notificationPreferences.orderShipped })
      .from(orders)
      .leftJoin(notificationPreferences, eq(notificationPreferences.userId, orders.userId))
      .where(eq(orders.id, orderId));
    return row?.orderShipped ?? true;
  }

  return {
    async shipmentSent(tx, { order, customerName, shipment, stillToShip }) {
      if (!(await wanted(tx, order._id))) return;
      const mail = shipmentSentMail({
        ...orderMailFacts(order, customerName, publicUrl),
        shipped: shipment.lines.map((l) => ({ name: l.productName, qty: l.qty })),
        stillToShip: stillToShip.map((l) => ({ name: l.productName, qty: l.qty })),
        tracking: mailTracking(shipment),
      });
      await mailer.sendIn(tx, { to: order.orderEmail, ...mail }, `order-shipment:${shipment.id}`);
    },
  };
}

/** One parcel of an order (docs/shipments.md): its lines, tracking and what is left. */
export function shipmentSentMail(
  o: OrderMailFacts & {
    /** What this parcel carries (the order's own `lines` are not listed). */
    shipped: { name: string; qty: number }[];
    /** What is still to ship after it (empty: the order is complete). */
    stillToShip: { name: string; qty: number }[];
    tracking?: MailTracking;
  },
): MailContent {
  const complete = o.stillToShip.length === 0;
  return layout({
    subject: complete
      ? `The last parcel of your ${STORE} order ${o.orderNumber} has shipped`
      : `Part of your ${STORE} order ${o.orderNumber} has shipped`,
    greeting: hello(o.name),
    paragraphs: [
      `A parcel of your order ${o.orderNumber} is on its way.`,
      ...trackingParagraphs(o.tracking),
      complete
        ? "With it, every part of your order has shipped."
        : `Still to ship: ${o.stillToShip.map((l) => `${l.qty} × ${l.name}`).join(", ")}.`,
    ],
    links: trackingLinks(o.tracking),
    table: o.shipped.map((l): [string, string] => [`${l.qty} × ${l.name}`, "in this parcel"]),
    action: viewOrder(o),
    after: [`You can turn off shipping emails in My Info: ${o.publicUrl}${paths.dashboard}`],
    publicUrl: o.publicUrl,
  });
}
