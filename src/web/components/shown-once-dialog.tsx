import { useState, type ReactNode } from "react";
import { Modal } from "./modal";

/**
 * What a feature's shown-once dialog takes: what was just issued (with its secret), the dialog's
 * title ("Key created", "Secret rotated") and how it closes.
 */
export interface IssuedSecret<Issued> {
  issued: Issued;
  title: string;
  onClose(): void;
}

/**
 * A secret no answer carries again (an API key, kept only as a hash; a webhook's signing
 * secret), shown this once: the warning, what it is for, the secret, a button that copies it
 * and, when the browser refuses the clipboard (a page not served over HTTPS), how to copy it by
 * hand.
 */
export function ShownOnceDialog({
  title,
  warning,
  about,
  secret,
  label,
  testId,
  copyLabel,
  copyFailed,
  onClose,
}: {
  title: string;
  warning: string;
  about: ReactNode;
  secret: string;
  /** The secret's accessible name. */
  label: string;
  testId: string;
  copyLabel: string;
  copyFailed: string;
  onClose(): void;
}) {
  const [copied, setCopied] = useState<boolean>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Modal open title={title} onClose={onClose}>
      <div className="flex flex-col gap-3">
        <p role="alert" className="font-medium">
          {warning}
        </p>
        <p className="text-sm break-all text-base-content/80">{about}</p>
        <code
          aria-label={label}
          data-testid={testId}
          className="block rounded-box bg-base-200 p-3 font-mono text-sm break-all select-all"
        >
          {secret}
        </code>
        {copied === false && <p className="text-sm text-error">{copyFailed}</p>}
        <div className="modal-action flex-wrap">
          <button type="button" className="btn btn-outline" onClick={() => void copy()}>
            {copied ? "Copied" : copyLabel}
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}
