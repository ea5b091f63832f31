import { apiKeyMessages as say, type ApiKeyIssued } from "#contract/api-keys";
import { ShownOnceDialog, type IssuedSecret } from "../../../components/shown-once-dialog";

/** A key just created or rotated, shown this once (the store keeps only its hash). */
export function IssuedKeyDialog({ issued, title, onClose }: IssuedSecret<ApiKeyIssued>) {
  return (
    <ShownOnceDialog
      title={title}
      warning={say.copyNow}
      about={
        <>
          {issued.apiKey.name}: send it as <code>Authorization: Bearer &lt;key&gt;</code>.
        </>
      }
      secret={issued.key}
      label="The new API key"
      testId="issued-api-key"
      copyLabel="Copy key"
      copyFailed={say.copyFailed}
      onClose={onClose}
    />
  );
}
