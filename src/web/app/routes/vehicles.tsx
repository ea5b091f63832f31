import { usePageTitle } from "../../components/page-title";
import { VehicleDatabase } from "../../features/vehicles/components/vehicle-database";

export function VehiclesRoute() {
  usePageTitle("Vehicles");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Vehicles</h1>
      <VehicleDatabase />
    </div>
  );
}
