import { TitledPage } from "../../components/page-title";
import { MarketsAdmin } from "../../features/pricing/components/markets-admin";

export function MarketsRoute() {
  return (
    <TitledPage title="Markets">
      <MarketsAdmin />
    </TitledPage>
  );
}
