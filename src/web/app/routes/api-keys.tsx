import { TitledPage } from "../../components/page-title";
import { ApiKeyAdmin } from "../../features/api-keys/components/api-key-admin";

/** `/dashboard/api-keys` (admins): keys other systems call the API with (docs/api-keys.md). */
export function ApiKeysRoute() {
  return (
    <TitledPage title="API keys">
      <ApiKeyAdmin />
    </TitledPage>
  );
}
