import { useState } from "react";
import { apiKeyMessages as say, type ApiKeyIssued } from "#contract/api-keys";
import { Modal } from "../../../components/modal";

/**
 * A key just created or rotated, shown this once (the store keeps only its hash): the key, a
 * button that copies it, and the warning that it will not be shown again.
 */
export function IssuedKeyDialog({
  issued,
  title,
  onClose,
}: {
  issued: ApiKeyIssued;
  title: string;
  onClose(): void;
}) {
  const [copied, setCopied] = useState<boolean>();
  // No clipboard (a page not served over HTTPS) throws at once: the admin copies it by hand.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(issued.key);
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
        <p className="text-sm text-base-content/80">
          {issued.apiKey.name}: send it as <code>Authorization: Bearer &lt;key&gt;</code>.
        </p>
        <code
          aria-label="The new API key"
          data-testid="issued-api-key"
          className="block rounded-box bg-base-200 p-3 font-mono text-sm break-all select-all"
        >
          {issued.key}
        </code>
        {copied === false && <p className="text-sm text-error">{say.copyFailed}</p>}
        <div className="modal-action flex-wrap">
          <button type="button" className="btn btn-outline" onClick={() => void copy()}>
            {copied ? "Copied" : "Copy key"}
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}
