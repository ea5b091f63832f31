import { usePageTitle } from "../../components/page-title";
import { SupplyPage } from "../../features/supply/components/supply-page";

export function IncomingSupplyRoute() {
  usePageTitle("Incoming supply");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Incoming supply</h1>
      <SupplyPage />
    </div>
  );
}
