import { plural } from "#contract/count";
import { useState } from "react";
import {
  webhookMessages as say,
  type WebhookEndpoint,
  type WebhookEndpointIssued,
} from "#contract/webhooks";
import { ActionDialog, RemoveDialog } from "../../../components/confirm-dialog";
import { CodeLines, ListTable, StatusBadge, type Column } from "../../../components/data-table";
import { RowButton } from "../../../components/edit-remove-buttons";
import { formatDateTime } from "../../../lib/format";
import { notify, notifyOutcome } from "../../../lib/notify";
import {
  useChangeWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useSendWebhookTest,
  useWebhookEndpoints,
} from "../api/webhooks";
import { DeliveryLog } from "./delivery-log";
import { CreateEndpointDialog, EditEndpointDialog } from "./endpoint-form";
import { SecretDialog } from "./secret-dialog";

/**
 * The admin's webhooks (docs/webhooks.md): every endpoint with its events and status; add one
 * (its secret is shown once), edit, disable or enable, rotate the secret, send a test event,
 * delete; and the chosen endpoint's delivery log, with each delivery's details and Replay.
 */
export function WebhookAdmin() {
  const answer = useWebhookEndpoints();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<WebhookEndpoint>();
  const [rotating, setRotating] = useState<WebhookEndpoint>();
  const [deleting, setDeleting] = useState<WebhookEndpoint>();
  const [viewing, setViewing] = useState<string>();
  const [issued, setIssued] = useState<{ title: string; issued: WebhookEndpointIssued }>();
  const change = useChangeWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhookEndpoint();
  const test = useSendWebhookTest();
  const rows = answer.data ?? [];
  const shown = rows.find((e) => e.id === viewing);
  const columns: Column<WebhookEndpoint>[] = [
    {
      header: "URL and description",
      role: "title",
      cell: (e) => (
        <>
          <span className="break-all">{e.url}</span>
          {e.description && (
            <span className="block text-sm font-normal text-base-content/80">{e.description}</span>
          )}
        </>
      ),
    },
    {
      header: "Events",
      cell: (e) => <CodeLines codes={e.eventTypes} />,
    },
    {
      header: "Secret",
      cell: (e) => (
        <>
          <code className="font-mono text-sm">{e.secretHint}</code>
          {e.previousSecretUntil && (
            <span className="block text-sm text-base-content/75">
              The previous one signs too until {formatDateTime(e.previousSecretUntil)}
            </span>
          )}
        </>
      ),
    },
    {
      header: "Status",
      testId: "webhook-endpoint-status",
      cell: (e) => (
        <>
          <StatusBadge tone={e.status === "enabled" ? "badge-success" : "badge-ghost"}>
            {e.status === "enabled" ? "Enabled" : "Disabled"}
          </StatusBadge>
          {e.disabledReason && (
            <span className="block max-w-56 text-sm text-base-content/75">
              {e.disabledReason === "failing" ? say.disabledFailing : say.disabledAdmin}
            </span>
          )}
        </>
      ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (e) => (
        <>
          <RowButton
            label={`Deliveries to ${e.url}`}
            tone="primary"
            aria-pressed={viewing === e.id}
            onClick={() => setViewing(e.id)}
          >
            Deliveries
          </RowButton>
          <RowButton label={`Edit ${e.url}`} onClick={() => setEditing(e)}>
            Edit
          </RowButton>
          <RowButton
            label={`${e.status === "enabled" ? "Disable" : "Enable"} ${e.url}`}
            disabled={change.isPending}
            onClick={() =>
              change.mutate(
                { id: e.id, body: { enabled: e.status !== "enabled" } },
                notifyOutcome((saved) =>
                  saved.status === "enabled" ? say.enabledDone : say.disabledDone,
                ),
              )
            }
          >
            {e.status === "enabled" ? "Disable" : "Enable"}
          </RowButton>
          <RowButton
            label={`Send test to ${e.url}`}
            disabled={test.isPending || e.status !== "enabled"}
            onClick={() =>
              test.mutate(e.id, {
                onSuccess: () => {
                  setViewing(e.id);
                  notify.success(say.tested);
                },
                onError: (err) => notify.error(err.message),
              })
            }
          >
            Send test
          </RowButton>
          <RowButton label={`Rotate secret of ${e.url}`} onClick={() => setRotating(e)}>
            Rotate secret
          </RowButton>
          <RowButton label={`Delete ${e.url}`} tone="danger" onClick={() => setDeleting(e)}>
            Delete
          </RowButton>
        </>
      ),
    },
  ];
  const enabled = rows.filter((e) => e.status === "enabled").length;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-base-content/80">
        Webhooks tell another system (an ERP, a warehouse system) what happens in the store: each
        event is posted to the endpoints that want it, signed, and retried for about 3 days.
      </p>
      <button
        type="button"
        className="btn btn-primary self-start"
        onClick={() => setCreating(true)}
      >
        Add endpoint
      </button>
      <ListTable
        isPending={answer.isPending}
        error={answer.error}
        empty={say.empty}
        summary={`${plural(rows.length, "endpoint")}, ${enabled} enabled`}
        label="Webhook endpoints"
        columns={columns}
        rows={rows}
        rowKey={(e) => e.id}
        rowTestId="webhook-endpoint-row"
      />
      {shown && <DeliveryLog key={shown.id} endpoint={shown} />}
      {creating && (
        <CreateEndpointDialog
          onClose={() => setCreating(false)}
          onIssued={(made) => {
            setCreating(false);
            setViewing(made.endpoint.id);
            setIssued({ title: say.created, issued: made });
          }}
        />
      )}
      {editing && (
        <EditEndpointDialog
          key={editing.id}
          endpoint={editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      {issued && <SecretDialog {...issued} onClose={() => setIssued(undefined)} />}
      <ActionDialog
        target={rotating}
        close={() => setRotating(undefined)}
        title={say.rotateTitle}
        confirmLabel="Rotate secret"
        action={rotate}
        id={(e) => e.id}
        done={(made) => setIssued({ title: say.rotated, issued: made })}
      >
        {() => say.rotateBody}
      </ActionDialog>
      <RemoveDialog
        target={deleting}
        close={() => {
          if (deleting?.id === viewing) setViewing(undefined);
          setDeleting(undefined);
        }}
        title={say.deleteTitle}
        confirmLabel="Delete endpoint"
        removal={remove}
        id={(e) => e.id}
        removed={say.deleted}
      >
        {(e) => (
          <>
            <span className="break-all">{e.url}</span>: {say.deleteBody}
          </>
        )}
      </RemoveDialog>
    </div>
  );
}
