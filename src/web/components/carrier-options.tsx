import { shippingCarrierLabels, shippingCarriers } from "#contract/shipping-carriers";

/** A carrier select's options: none ("No tracking"), then each carrier the store knows. */
export function CarrierOptions() {
  return (
    <>
      <option value="">No tracking</option>
      {shippingCarriers.map((c) => (
        <option key={c} value={c}>
          {shippingCarrierLabels[c]}
        </option>
      ))}
    </>
  );
}
