import { useState } from "react";
import { webhookMessages as say, type WebhookEndpointIssued } from "#contract/webhooks";
import { Modal } from "../../../components/modal";

/** A signing secret just made or rotated, shown this once, with a button that copies it. */
export function SecretDialog({
  issued,
  title,
  onClose,
}: {
  issued: WebhookEndpointIssued;
  title: string;
  onClose(): void;
}) {
  const [copied, setCopied] = useState<boolean>();
  // No clipboard (a page not served over HTTPS) throws at once: the admin copies it by hand.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Modal open title={title} onClose={onClose}>
      <div className="flex flex-col gap-3">
        <p role="alert" className="font-medium">
          {say.copyNow}
        </p>
        <p className="text-sm break-all text-base-content/80">
          {issued.endpoint.url}: the receiver checks each delivery's <code>webhook-signature</code>{" "}
          with it (docs/webhooks.md).
        </p>
        <code
          aria-label="The signing secret"
          data-testid="webhook-secret"
          className="block rounded-box bg-base-200 p-3 font-mono text-sm break-all select-all"
        >
          {issued.secret}
        </code>
        {copied === false && (
          <p className="text-sm text-error">
            The browser did not let the page copy: select the secret and copy it yourself.
          </p>
        )}
        <div className="modal-action flex-wrap">
          <button type="button" className="btn btn-outline" onClick={() => void copy()}>
            {copied ? "Copied" : "Copy secret"}
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}
