import { eq } from "drizzle-orm";
import { shippingCarrierLabels } from "../../contract/shipping-carriers";
import type { DbOrTx } from "../db/database";
import { notificationPreferences, orders } from "../db/schema";
import type { ShipmentNotifier } from "../shipments/service";
import type { Mailer } from "./mailer";
import { orderMailFacts } from "./order-mail";
import { shipmentSentMail } from "./templates";

/**
 * The email of each shipment (docs/partial-shipment.md): optional like "has shipped" (My Info),
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
        tracking:
          shipment.carrier && shipment.trackingNumber
            ? {
                carrier: shippingCarrierLabels[shipment.carrier],
                number: shipment.trackingNumber,
                url: shipment.trackingUrl,
              }
            : undefined,
      });
      await mailer.sendIn(tx, { to: order.orderEmail, ...mail }, `order-shipment:${shipment.id}`);
    },
  };
}
