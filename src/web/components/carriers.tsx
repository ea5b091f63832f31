import {
  shippingCarrierLabels,
  shippingCarriers,
  type ShippingCarrier,
} from "#contract/shipping-carriers";
import { SelectOptions } from "./select-options";

/** A carrier select's options: none ("No tracking"), then each carrier the store knows. */
export const CarrierOptions = () => (
  <SelectOptions empty="No tracking" values={shippingCarriers} labels={shippingCarrierLabels} />
);

/** A carrier as a sentence names it ("UPS"; "our carrier" for another one). */
export const carrierName = (carrier: ShippingCarrier) =>
  carrier === "other" ? "our carrier" : shippingCarrierLabels[carrier];

/** A parcel's tracking number, linking to the carrier's page when it has one. */
export function TrackingNumber({ number, url }: { number: string; url: string | null }) {
  return url ? (
    <a href={url} target="_blank" rel="noopener noreferrer" className="link font-mono link-primary">
      {number}
      <span className="sr-only"> (opens the carrier's tracking page in a new tab)</span>
    </a>
  ) : (
    <span className="font-mono">{number}</span>
  );
}
