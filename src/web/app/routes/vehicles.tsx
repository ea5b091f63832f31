import { TitledPage } from "../../components/page-title";
import { VehicleDatabase } from "../../features/vehicles/components/vehicle-database";

export function VehiclesRoute() {
  return (
    <TitledPage title="Vehicles">
      <VehicleDatabase />
    </TitledPage>
  );
}
