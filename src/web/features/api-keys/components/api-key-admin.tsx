import { plural } from "#contract/count";
import { useState } from "react";
import {
  apiKeyMessages as say,
  apiKeyStatusLabels,
  type ApiKey,
  type ApiKeyIssued,
  type ApiKeyStatus,
} from "#contract/api-keys";
import { ActionDialog, RemoveDialog } from "../../../components/confirm-dialog";
import { CodeLines, ListTable, StatusBadge, type Column } from "../../../components/data-table";
import { RowButton } from "../../../components/edit-remove-buttons";
import { formatDate, formatDateTime } from "../../../lib/format";
import { useApiKeys, useRevokeApiKey, useRotateApiKey } from "../api/api-keys";
import { CreateApiKeyDialog, EditApiKeyDialog } from "./api-key-form";
import { IssuedKeyDialog } from "./issued-key-dialog";

const statusBadge: Record<ApiKeyStatus, string> = {
  active: "badge-success",
  expired: "badge-warning",
  revoked: "badge-ghost",
};

/**
 * The admin's API keys (docs/api-keys.md): every key with its prefix, scopes, dates and status;
 * create one (its key is shown once), edit, rotate (a new key, shown once) and revoke.
 */
export function ApiKeyAdmin() {
  const answer = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKey>();
  const [rotating, setRotating] = useState<ApiKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [issued, setIssued] = useState<{ title: string; issued: ApiKeyIssued }>();
  const rotate = useRotateApiKey();
  const revoke = useRevokeApiKey();
  const rows = answer.data ?? [];
  const columns: Column<ApiKey>[] = [
    {
      // The prefix under the name: what tells one key from another, and a column fewer.
      header: "Name and prefix",
      role: "title",
      cell: (k) => (
        <>
          <span className="break-words">{k.name}</span>
          <code className="block font-mono text-sm font-normal text-base-content/80">
            {k.prefix}
          </code>
        </>
      ),
    },
    {
      header: "Scopes",
      // One a line: the column is as wide as the longest scope, however many a key holds.
      cell: (k) => <CodeLines codes={k.scopes} />,
    },
    { header: "Created", cell: (k) => formatDate(k.createdAt) },
    {
      header: "Last used",
      testId: "api-key-last-used",
      cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never"),
    },
    { header: "Expires", cell: (k) => (k.expiresAt ? formatDate(k.expiresAt) : "Never") },
    {
      header: "Status",
      testId: "api-key-status",
      cell: (k) => (
        <StatusBadge tone={statusBadge[k.status]}>{apiKeyStatusLabels[k.status]}</StatusBadge>
      ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (k) =>
        k.status === "revoked" ? null : (
          <>
            <RowButton label={`Edit ${k.name}`} onClick={() => setEditing(k)}>
              Edit
            </RowButton>
            <RowButton label={`Rotate ${k.name}`} onClick={() => setRotating(k)}>
              Rotate
            </RowButton>
            <RowButton label={`Revoke ${k.name}`} tone="danger" onClick={() => setRevoking(k)}>
              Revoke
            </RowButton>
          </>
        ),
    },
  ];
  const live = rows.filter((k) => k.status !== "revoked").length;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-base-content/80">
        Keys let another system (an ERP, a warehouse system) call the store's API as you, within the
        scopes you give each key. Keys are not people: two-factor sign-in does not apply to them.
      </p>
      <button
        type="button"
        className="btn btn-primary self-start"
        onClick={() => setCreating(true)}
      >
        Create API key
      </button>
      <ListTable
        isPending={answer.isPending}
        error={answer.error}
        empty={say.empty}
        summary={`${plural(rows.length, "key")}, ${live} not revoked`}
        label="API keys"
        columns={columns}
        rows={rows}
        rowKey={(k) => k.id}
        rowTestId="api-key-row"
      />
      {creating && (
        <CreateApiKeyDialog
          onClose={() => setCreating(false)}
          onIssued={(made) => {
            setCreating(false);
            setIssued({ title: say.created(made.apiKey.name), issued: made });
          }}
        />
      )}
      {editing && (
        <EditApiKeyDialog key={editing.id} apiKey={editing} onClose={() => setEditing(undefined)} />
      )}
      {issued && <IssuedKeyDialog {...issued} onClose={() => setIssued(undefined)} />}
      <ActionDialog
        target={rotating}
        close={() => setRotating(undefined)}
        title={rotating ? say.rotateTitle(rotating.name) : ""}
        confirmLabel="Rotate key"
        action={rotate}
        id={(k) => k.id}
        done={(made) => setIssued({ title: say.rotated(made.apiKey.name), issued: made })}
      >
        {() => say.rotateBody}
      </ActionDialog>
      <RemoveDialog
        target={revoking}
        close={() => setRevoking(undefined)}
        title={revoking ? say.revokeTitle(revoking.name) : ""}
        confirmLabel="Revoke key"
        removal={revoke}
        removed={revoking && say.revokedDone(revoking.name)}
      >
        {() => <>{say.revokeBody}</>}
      </RemoveDialog>
    </div>
  );
}
