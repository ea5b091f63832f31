import { usePageTitle } from "../../components/page-title";
import { WebhookAdmin } from "../../features/webhooks/components/webhook-admin";

/** `/dashboard/webhooks` (admins): outgoing webhooks and their delivery log (docs/webhooks.md). */
export function WebhooksRoute() {
  usePageTitle("Webhooks");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Webhooks</h1>
      <WebhookAdmin />
    </div>
  );
}
