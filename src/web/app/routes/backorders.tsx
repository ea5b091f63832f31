import { TitledPage } from "../../components/page-title";
import { BackorderQueue } from "../../features/supply/components/backorder-queue";

export function BackordersRoute() {
  return (
    <TitledPage title="Backorders">
      <BackorderQueue />
    </TitledPage>
  );
}
