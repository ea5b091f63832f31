import type { VehicleChoice } from "../../../lib/vehicle-choice";
import { useVehicle } from "../api/vehicles";

/**
 * Tells the customer which vehicle an order is for: the one chosen in the vehicle selector or
 * My garage. The order lines keep it (docs/vehicle-on-line.md). Nothing when none is chosen, or
 * while the catalog has not named it yet.
 */
export function ChosenVehicleNote({ vehicle }: { vehicle: VehicleChoice | undefined }) {
  const { data } = useVehicle(vehicle);
  if (!vehicle || !data) return null;
  return (
    <p className="text-sm text-base-content/80" data-testid="order-vehicle">
      For your <strong>{data.label}</strong>: the order keeps this vehicle on each line.
    </p>
  );
}
