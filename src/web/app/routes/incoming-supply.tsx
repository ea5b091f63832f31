import { TitledPage } from "../../components/page-title";
import { SupplyPage } from "../../features/supply/components/supply-page";

export function IncomingSupplyRoute() {
  return (
    <TitledPage title="Incoming supply">
      <SupplyPage />
    </TitledPage>
  );
}
