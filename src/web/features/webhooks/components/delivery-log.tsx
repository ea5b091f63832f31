import { pluralCount } from "#contract/count";
import { useState } from "react";
import {
  webhookDeliveryStatusLabels,
  webhookDeliveryStatuses,
  webhookMessages as say,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
} from "#contract/webhooks";
import { ListTable, StatusBadge, type Column } from "../../../components/data-table";
import { Modal } from "../../../components/modal";
import { formatCount, formatDateTime } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import {
  useReplayWebhookDelivery,
  useWebhookDeliveries,
  useWebhookDelivery,
} from "../api/webhooks";
import { SelectOptions } from "../../../components/select-options";
import { RowButton } from "../../../components/edit-remove-buttons";

const statusBadge: Record<WebhookDeliveryStatus, string> = {
  pending: "badge-warning",
  succeeded: "badge-success",
  failed: "badge-error",
};

const duration = (ms: number | null) => (ms === null ? "—" : `${formatCount(ms)} ms`);

/** A JSON body pretty-printed when it is JSON, else as it is. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One endpoint's deliveries: status, answer, time taken, attempts, next attempt; details and Replay. */
export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [status, setStatus] = useState<WebhookDeliveryStatus | "">("");
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string>();
  const answer = useWebhookDeliveries(endpoint.id, status, page);
  const rows = answer.data?.deliveries ?? [];
  const total = answer.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / (answer.data?.pageSize ?? 50)));
  const columns: Column<WebhookDelivery>[] = [
    {
      header: "Event",
      role: "title",
      cell: (d) => (
        <>
          <span className="font-mono">{d.eventType}</span>
          <span className="block text-sm font-normal text-base-content/80">
            {formatDateTime(d.createdAt)}
          </span>
        </>
      ),
    },
    {
      header: "Status",
      testId: "webhook-delivery-status",
      cell: (d) => (
        <StatusBadge tone={statusBadge[d.status]}>
          {webhookDeliveryStatusLabels[d.status]}
        </StatusBadge>
      ),
    },
    {
      header: "Response",
      cell: (d) => (d.lastResponseStatus === null ? (d.lastError ?? "—") : d.lastResponseStatus),
    },
    { header: "Time taken", cell: (d) => duration(d.lastDurationMs) },
    { header: "Attempts", testId: "webhook-delivery-attempts", cell: (d) => d.attempts },
    {
      header: "Next attempt",
      cell: (d) => (d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : "—"),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (d) => (
        <RowButton label={`Details of ${d.eventType} ${d.messageId}`} onClick={() => setOpen(d.id)}>
          Details
        </RowButton>
      ),
    },
  ];
  return (
    <section aria-labelledby="delivery-log-title" className="flex flex-col gap-3">
      <h2 id="delivery-log-title" className="text-xl font-bold break-all">
        Deliveries to {endpoint.url}
      </h2>
      <label className="flex flex-wrap items-center gap-2 text-sm">
        Status
        <select
          className="select select-sm"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as WebhookDeliveryStatus | "");
            setPage(1);
          }}
        >
          <SelectOptions
            empty="All"
            values={webhookDeliveryStatuses}
            labels={webhookDeliveryStatusLabels}
          />
        </select>
      </label>
      <ListTable
        isPending={answer.isPending}
        error={answer.error}
        filtered={status !== ""}
        empty={say.noDeliveries}
        noMatch="No deliveries of this status."
        summary={pluralCount(total, "delivery", "deliveries")}
        label="Deliveries"
        columns={columns}
        rows={rows}
        rowKey={(d) => d.id}
        rowTestId="webhook-delivery-row"
      />
      {pages > 1 && (
        <div className="join self-start">
          <button
            type="button"
            className="btn join-item btn-sm"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Newer
          </button>
          <span className="btn join-item btn-sm pointer-events-none">
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="btn join-item btn-sm"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Older
          </button>
        </div>
      )}
      {open && <DeliveryDetails id={open} onClose={() => setOpen(undefined)} />}
    </section>
  );
}

/** What was sent and every attempt's answer; Replay sends it again with the same webhook-id. */
function DeliveryDetails({ id, onClose }: { id: string; onClose(): void }) {
  const answer = useWebhookDelivery(id);
  const replay = useReplayWebhookDelivery();
  const d = answer.data;
  return (
    <Modal open title={d ? `Delivery of ${d.eventType}` : "Delivery"} onClose={onClose}>
      {!d ? (
        <p>{answer.error ? answer.error.message : "Loading…"}</p>
      ) : (
        <div className="flex flex-col gap-3">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="font-medium">webhook-id</dt>
            <dd className="font-mono break-all">{d.messageId}</dd>
            <dt className="font-medium">Status</dt>
            <dd data-testid="webhook-detail-status">{webhookDeliveryStatusLabels[d.status]}</dd>
            <dt className="font-medium">Attempts</dt>
            <dd>{d.attempts}</dd>
            <dt className="font-medium">Next attempt</dt>
            <dd>{d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : "—"}</dd>
          </dl>
          <h3 className="font-bold">Request body</h3>
          <pre
            data-testid="webhook-request-body"
            className="max-h-60 overflow-auto rounded-box bg-base-200 p-3 text-xs whitespace-pre-wrap break-all"
          >
            {pretty(d.requestBody)}
          </pre>
          <h3 className="font-bold">Attempts</h3>
          {d.attemptLog.length === 0 && <p className="text-sm">Not attempted yet.</p>}
          <ol className="flex flex-col gap-3">
            {d.attemptLog.map((a, i) => (
              <li key={a.id} className="rounded-box border border-base-300 p-3 text-sm">
                <p className="font-medium">
                  {i + 1}. {formatDateTime(a.attemptedAt)}:{" "}
                  {a.responseStatus === null ? "no answer" : `answered ${a.responseStatus}`} in{" "}
                  {duration(a.durationMs)}
                </p>
                {a.error && <p className="text-error">{a.error}</p>}
                <details>
                  <summary className="cursor-pointer">Request headers</summary>
                  <pre className="overflow-auto text-xs whitespace-pre-wrap break-all">
                    {Object.entries(a.requestHeaders)
                      .map(([k, v]) => `${k}: ${v}`)
                      .join("\n")}
                  </pre>
                </details>
                {a.responseBody && (
                  <details>
                    <summary className="cursor-pointer">Response body</summary>
                    <pre className="overflow-auto text-xs whitespace-pre-wrap break-all">
                      {a.responseBody}
                    </pre>
                  </details>
                )}
              </li>
            ))}
          </ol>
          {replay.error && <p className="text-sm text-error">{replay.error.message}</p>}
          <div className="modal-action flex-wrap">
            <button
              type="button"
              className="btn btn-outline"
              disabled={replay.isPending}
              onClick={() => replay.mutate(d.id, { onSuccess: () => notify.success(say.replayed) })}
            >
              Replay
            </button>
            <button type="button" className="btn btn-primary" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
