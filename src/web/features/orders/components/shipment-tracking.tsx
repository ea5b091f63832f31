import type { Order } from "#contract/orders";
import { shippingCarrierLabels } from "#contract/shipping-carriers";

/** "Shipped with UPS · tracking 1Z…", the number linking to the carrier's page when it has one. */
export function ShipmentTracking({ order }: { order: Order }) {
  if (!order.carrier || !order.trackingNumber) return null;
  const carrier = order.carrier === "other" ? "our carrier" : shippingCarrierLabels[order.carrier];
  return (
    <p data-testid="shipment-tracking" className="break-all">
      Shipped with {carrier} · tracking{" "}
      {order.trackingUrl ? (
        <a
          href={order.trackingUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="link font-mono link-primary"
        >
          {order.trackingNumber}
          <span className="sr-only"> (opens the carrier's tracking page in a new tab)</span>
        </a>
      ) : (
        <span className="font-mono">{order.trackingNumber}</span>
      )}
    </p>
  );
}
