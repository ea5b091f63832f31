import { useState } from "react";
import { paths } from "#contract/paths";
import {
  returnReasonLabels,
  returnStatuses,
  returnStatusLabels,
  returnMessages,
  type Return,
  type ReturnStatus,
} from "#contract/returns";
import { BreakableEmail, DataTable, ListStates, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { Modal } from "../../../components/modal";
import { PageSpinner } from "../../../components/spinner";
import { QueryError } from "../../../components/query-error";
import { formatDate, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useAdminReturns, useFitmentReport, useReturnAction } from "../api/returns";
import { ReturnPhotos } from "./return-photos";
import { ReturnStatusBadge } from "./return-status-badge";

const PAGE_SIZE = 25;

/** The admin's return requests: filter by status, approve or refuse, mark received, retry. */
export function ReturnsAdmin() {
  const [params, update] = useUrlParams();
  const status = (returnStatuses as readonly string[]).includes(params.get("status") ?? "")
    ? (params.get("status") as ReturnStatus)
    : undefined;
  const page = pageParam(params, PAGE_SIZE);
  const { data, error, isPending, isPlaceholderData } = useAdminReturns({
    status,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  useStayWithinPages(page, data && !isPlaceholderData ? pageCount : undefined, update);
  const action = useReturnAction();
  const [refusing, setRefusing] = useState<Return>();
  const [failure, setFailure] = useState<{ id: string; message: string }>();

  const run = async (
    r: Return,
    kind: "approve" | "receive" | "refund",
    done: (after: Return) => string,
  ) => {
    setFailure(undefined);
    try {
      const after = await action.mutateAsync(
        kind === "approve"
          ? { kind: "decision", id: r.id, body: { decision: "approve" } }
          : { kind, id: r.id },
      );
      notify.success(done(after));
    } catch (err) {
      setFailure({ id: r.id, message: (err as Error).message });
    }
  };

  const columns: Column<Return>[] = [
    {
      header: "Order",
      role: "title",
      cell: (r) => (
        <Link to={paths.order.to(r.orderId)} className="link font-mono">
          {formatOrderNumber(r.orderId)}
        </Link>
      ),
    },
    { header: "Customer", cell: (r) => <BreakableEmail email={r.orderEmail} /> },
    {
      header: "Lines",
      cell: (r) => (
        <ul>
          {r.lines.map((l) => (
            <li key={l.line}>
              {l.qty} × {l.productName}
              {l.partNumber && <span className="text-base-content/75"> ({l.partNumber})</span>}
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: "Reason",
      cell: (r) => (
        <div>
          {returnReasonLabels[r.reason]}
          {r.vehicle && <span className="block text-xs">Vehicle: {r.vehicle}</span>}
          {r.note && <span className="block text-xs text-base-content/75">“{r.note}”</span>}
          <ReturnPhotos photos={r.photos} />
        </div>
      ),
    },
    { header: "Refund", numeric: true, cell: (r) => formatPrice(r.amount, r.currency) },
    {
      header: "Status",
      cell: (r) => (
        <span className="flex flex-col items-start gap-1">
          <ReturnStatusBadge status={r.status} />
          <span className="text-xs text-base-content/75">asked {formatDate(r.requestedAt)}</span>
          {r.refundError && <span className="text-xs text-error">{r.refundError}</span>}
          {r.adminMessage && <span className="text-xs">Message: {r.adminMessage}</span>}
          {r.creditNote && (
            <a href={r.creditNote.pdfUrl} download className="link text-xs">
              Credit note {r.creditNote.number}
            </a>
          )}
          {failure?.id === r.id && (
            <span role="alert" className="text-xs text-error">
              {failure.message}
            </span>
          )}
        </span>
      ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (r) => (
        <span className="flex flex-wrap gap-2">
          {r.status === "requested" && (
            <>
              <button
                type="button"
                className="btn btn-sm btn-primary"
                disabled={action.isPending}
                onClick={() =>
                  void run(
                    r,
                    "approve",
                    () => "Return approved: the customer is emailed the instructions",
                  )
                }
              >
                Approve
              </button>
              <button
                type="button"
                className="btn btn-sm btn-outline btn-error"
                disabled={action.isPending}
                onClick={() => setRefusing(r)}
              >
                Refuse
              </button>
            </>
          )}
          {r.status === "approved" && (
            <button
              type="button"
              className="btn btn-sm btn-primary"
              disabled={action.isPending}
              onClick={() =>
                void run(r, "receive", (after) =>
                  after.status === "refunded"
                    ? `Received and refunded: credit note ${after.creditNote?.number ?? ""}`
                    : `Received; the refund failed: ${after.refundError ?? "see the list"}`,
                )
              }
            >
              Mark received
            </button>
          )}
          {r.status === "refund_failed" && (
            <button
              type="button"
              className="btn btn-sm btn-warning"
              disabled={action.isPending}
              onClick={() =>
                void run(r, "refund", (after) =>
                  after.status === "refunded"
                    ? "Refunded"
                    : `The refund failed again: ${after.refundError ?? ""}`,
                )
              }
            >
              Retry refund
            </button>
          )}
        </span>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor="returns-status" className="text-sm font-medium">
          Status
        </label>
        <select
          id="returns-status"
          className="select select-bordered w-fit"
          value={status ?? ""}
          onChange={(e) => update({ status: e.target.value || undefined, page: undefined })}
        >
          <option value="">All</option>
          {returnStatuses.map((s) => (
            <option key={s} value={s}>
              {returnStatusLabels[s]}
            </option>
          ))}
        </select>
      </div>
      <ListStates
        isPending={isPending}
        error={error}
        count={data?.items.length}
        filtered={status !== undefined}
        empty="No customer has asked to return anything yet."
        noMatch="No return has this status."
        summary={data && `${data.total} ${data.total === 1 ? "return" : "returns"}`}
        stale={isPlaceholderData}
        page={page}
        pageCount={pageCount}
        onPage={(p) => update({ page: p === 1 ? undefined : String(p) })}
      >
        <DataTable
          label="Returns"
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(r) => r.id}
          rowTestId="admin-return"
        />
      </ListStates>
      {refusing && <RefuseDialog r={refusing} onClose={() => setRefusing(undefined)} />}
    </div>
  );
}

function RefuseDialog({ r, onClose }: { r: Return; onClose(): void }) {
  const action = useReturnAction();
  const [error, setError] = useState<string>();

  const submit = async (form: FormData) => {
    const message = String(form.get("message") ?? "").trim();
    if (message === "") {
      setError(returnMessages.refuseNeedsMessage);
      return;
    }
    setError(undefined);
    try {
      await action.mutateAsync({
        kind: "decision",
        id: r.id,
        body: { decision: "refuse", message },
      });
      notify.success("Return refused: the customer is emailed why");
      onClose();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <Modal
      open
      title={`Refuse the return of order ${formatOrderNumber(r.orderId)}`}
      onClose={onClose}
    >
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(new FormData(e.currentTarget));
        }}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor="refuse-message" className="text-sm font-medium">
            Message to the customer
          </label>
          <textarea
            id="refuse-message"
            name="message"
            maxLength={2000}
            required
            className={`textarea textarea-bordered w-full ${error ? "textarea-error" : ""}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "refuse-message-error" : undefined}
          />
          {error && (
            <p id="refuse-message-error" role="alert" className="text-sm text-error">
              {error}
            </p>
          )}
        </div>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-error" disabled={action.isPending}>
            Refuse return
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** "Did not fit" returns per product, with the vehicles customers named. */
export function FitmentReportTable() {
  const { data, error, isPending } = useFitmentReport();
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  if (data.length === 0) {
    return (
      <p className="rounded-box bg-base-200 p-8 text-center text-base-content/75">
        No part has come back as "did not fit" yet.
      </p>
    );
  }
  return (
    <DataTable
      label="Did not fit, per product"
      columns={[
        {
          header: "Product",
          role: "title",
          cell: (f) =>
            f.productId ? (
              <Link to={paths.product.to(f.productId)} className="link">
                {f.productName}
              </Link>
            ) : (
              f.productName
            ),
        },
        { header: "Part number", cell: (f) => f.partNumber ?? "—" },
        { header: "Returns", numeric: true, cell: (f) => f.returns },
        { header: "Units", numeric: true, cell: (f) => f.units },
        {
          header: "Vehicles",
          cell: (f) => (
            <ul>
              {f.vehicles.map((v) => (
                <li key={v.vehicle}>
                  {v.vehicle}
                  {v.returns > 1 && ` (${v.returns}×)`}
                </li>
              ))}
            </ul>
          ),
        },
      ]}
      rows={data}
      rowKey={(f) => f.productId ?? f.productName}
      rowTestId="fitment-row"
    />
  );
}
