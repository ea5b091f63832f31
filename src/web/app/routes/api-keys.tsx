import { usePageTitle } from "../../components/page-title";
import { ApiKeyAdmin } from "../../features/api-keys/components/api-key-admin";

/** `/dashboard/api-keys` (admins): keys other systems call the API with (docs/api-keys.md). */
export function ApiKeysRoute() {
  usePageTitle("API keys");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">API keys</h1>
      <ApiKeyAdmin />
    </div>
  );
}
