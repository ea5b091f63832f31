import { TitledPage } from "../../components/page-title";
import { LocationsPage } from "../../features/locations/components/locations-page";

export function LocationsRoute() {
  return (
    <TitledPage title="Locations">
      <LocationsPage />
    </TitledPage>
  );
}
