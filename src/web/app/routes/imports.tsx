import { TitledPage } from "../../components/page-title";
import { ImportsPage } from "../../features/imports/components/imports-page";

export function ImportsRoute() {
  return (
    <TitledPage title="Imports">
      <ImportsPage />
    </TitledPage>
  );
}
