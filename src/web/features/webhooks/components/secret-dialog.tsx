import { webhookMessages as say, type WebhookEndpointIssued } from "#contract/webhooks";
import { ShownOnceDialog, type IssuedSecret } from "../../../components/shown-once-dialog";

/** A signing secret just made or rotated, shown this once (no answer carries it again). */
export function SecretDialog({ issued, title, onClose }: IssuedSecret<WebhookEndpointIssued>) {
  return (
    <ShownOnceDialog
      title={title}
      warning={say.copyNow}
      about={
        <>
          {issued.endpoint.url}: the receiver checks each delivery&apos;s{" "}
          <code>webhook-signature</code> with it (docs/webhooks.md).
        </>
      }
      secret={issued.secret}
      label="The signing secret"
      testId="webhook-secret"
      copyLabel="Copy secret"
      copyFailed="The browser did not let the page copy: select the secret and copy it yourself."
      onClose={onClose}
    />
  );
}
