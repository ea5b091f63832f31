import { usePageTitle } from "../../components/page-title";
import { LocationsPage } from "../../features/locations/components/locations-page";

export function LocationsRoute() {
  usePageTitle("Locations");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Locations</h1>
      <LocationsPage />
    </div>
  );
}
