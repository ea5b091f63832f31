import { TitledPage } from "../../components/page-title";
import { WebhookAdmin } from "../../features/webhooks/components/webhook-admin";

/** `/dashboard/webhooks` (admins): outgoing webhooks and their delivery log (docs/webhooks.md). */
export function WebhooksRoute() {
  return (
    <TitledPage title="Webhooks">
      <WebhookAdmin />
    </TitledPage>
  );
}
