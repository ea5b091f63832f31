import type { Order } from "#contract/orders";
import { carrierName, TrackingNumber } from "../../../components/carriers";

/** "Shipped with UPS · tracking 1Z…", the number linking to the carrier's page when it has one. */
export function ShipmentTracking({ order }: { order: Order }) {
  if (!order.carrier || !order.trackingNumber) return null;
  return (
    <p data-testid="shipment-tracking" className="break-all">
      Shipped with {carrierName(order.carrier)} · tracking{" "}
      <TrackingNumber number={order.trackingNumber} url={order.trackingUrl} />
    </p>
  );
}
