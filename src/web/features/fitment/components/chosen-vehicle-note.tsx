import type { VehicleChoice } from "../../../lib/vehicle-choice";
import { useVehicle } from "../api/fitment";

/**
 * Tells the customer which vehicle an order is for: the one chosen in the vehicle selector or
 * My garage. The order lines keep it (docs/vehicle-on-line.md); at the cart's checkout
 * (`cart`), only the lines added without a vehicle of their own. Nothing when none is chosen, or
 * while the catalog has not named it yet.
 */
export function ChosenVehicleNote({
  vehicle,
  cart = false,
}: {
  vehicle: VehicleChoice | undefined;
  cart?: boolean;
}) {
  const { data } = useVehicle(vehicle);
  if (!vehicle || !data) return null;
  return (
    <p className="text-sm text-base-content/80" data-testid="order-vehicle">
      For your <strong>{data.label}</strong>:{" "}
      {cart
        ? "lines added without a vehicle keep this one."
        : "the order keeps this vehicle on each line."}
    </p>
  );
}
