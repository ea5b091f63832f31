import { plural } from "#contract/count";
import { useState } from "react";
import { paths } from "#contract/paths";
import {
  receivedConditionLabels,
  returnReasonLabels,
  returnStatuses,
  returnStatusLabels,
  returnDecisionSchema,
  returnMessages,
  type Return,
} from "#contract/returns";
import { BreakableEmail, ListTable, type Column } from "../../../components/data-table";
import { Link } from "../../../components/link";
import { Modal } from "../../../components/modal";
import { formatDate, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useAdminReturns, useFitmentReport, useReturnAction } from "../api/returns";
import { ReceiveDialog } from "./receive-dialog";
import { ReturnPhotos } from "./return-photos";
import { ReturnDialogButtons } from "./return-dialog-buttons";
import { ReturnStatusBadge } from "./return-status-badge";
import { ListFilter } from "../../../components/list-filter";
import { SelectOptions } from "../../../components/select-options";

const PAGE_SIZE = 25;

/** The admin's return requests: filter by status, approve or refuse, mark received, retry. */
export function ReturnsAdmin() {
  const list = useListPage(PAGE_SIZE);
  const status = list.choice("status", returnStatuses);
  const answer = useAdminReturns({ status, ...list.paging });
  const states = useListStates(list, answer, (total) => plural(total, "return"));
  const action = useReturnAction();
  const [refusing, setRefusing] = useState<Return>();
  const [failure, setFailure] = useState<{ id: string; message: string }>();

  const [receiving, setReceiving] = useState<Return>();
  const run = async (r: Return, kind: "approve" | "refund", done: (after: Return) => string) => {
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
      header: "Return",
      role: "title",
      cell: (r) => (
        <span className="flex flex-col">
          <span className="font-mono font-semibold" data-testid="return-rma">
            {r.rma}
          </span>
          <Link to={paths.order.to(r.orderId)} className="link font-mono text-sm">
            {formatOrderNumber(r)}
          </Link>
        </span>
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
              {l.received && (
                <span className="block text-xs">
                  Received {l.received.qty},{" "}
                  {receivedConditionLabels[l.received.condition].toLowerCase()}
                  {l.received.fee > 0 &&
                    ` · restocking fee ${formatPrice(l.received.fee, r.currency)}`}
                </span>
              )}
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
    {
      header: "Refund",
      numeric: true,
      cell: (r) => (
        <span className="flex flex-col items-end">
          {formatPrice(r.amount, r.currency)}
          {r.fee > 0 && (
            <span className="text-xs text-base-content/75">
              fee {formatPrice(r.fee, r.currency)}
            </span>
          )}
        </span>
      ),
    },
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
              onClick={() => setReceiving(r)}
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
      <ListFilter
        label="Status"
        value={status}
        onChange={(value) => list.refine({ status: value })}
        className="w-fit"
      >
        <SelectOptions empty="All" values={returnStatuses} labels={returnStatusLabels} />
      </ListFilter>
      <ListTable
        {...states}
        filtered={status !== undefined}
        empty="No customer has asked to return anything yet."
        noMatch="No return has this status."
        label="Returns"
        columns={columns}
        rowKey={(r) => r.id}
        rowTestId="admin-return"
      />
      {refusing && <RefuseDialog r={refusing} onClose={() => setRefusing(undefined)} />}
      {receiving && <ReceiveDialog r={receiving} onClose={() => setReceiving(undefined)} />}
    </div>
  );
}

/** Refusing needs the words the customer is told. */
const refusalSchema = returnDecisionSchema.refine((d) => d.decision !== "refuse" || d.message, {
  path: ["message"],
  message: returnMessages.refuseNeedsMessage,
});

function RefuseDialog({ r, onClose }: { r: Return; onClose(): void }) {
  const action = useReturnAction();
  const { register, submitWith, formError, formState } = useApiForm(refusalSchema, {
    defaultValues: { decision: "refuse", message: "" },
  });
  const error = formState.errors.message?.message ?? formError;

  return (
    <Modal open title={`Refuse the return of order ${formatOrderNumber(r)}`} onClose={onClose}>
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={submitWith(async (body) => {
          await action.mutateAsync({ kind: "decision", id: r.id, body });
          notify.success("Return refused: the customer is emailed why");
          onClose();
        })}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor="refuse-message" className="text-sm font-medium">
            Message to the customer
          </label>
          <textarea
            id="refuse-message"
            maxLength={2000}
            required
            className={`textarea textarea-bordered w-full ${error ? "textarea-error" : ""}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "refuse-message-error" : undefined}
            {...register("message")}
          />
          {error && (
            <p id="refuse-message-error" role="alert" className="text-sm text-error">
              {error}
            </p>
          )}
        </div>
        <ReturnDialogButtons onClose={onClose} busy={action.isPending} danger>
          Refuse return
        </ReturnDialogButtons>
      </form>
    </Modal>
  );
}

/** "Did not fit" returns per product, with the vehicles customers named. */
export function FitmentReportTable() {
  const { data, error, isPending } = useFitmentReport();
  return (
    <ListTable
      isPending={isPending}
      error={error}
      empty='No part has come back as "did not fit" yet.'
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
      rows={data ?? []}
      rowKey={(f) => f.productId ?? f.productName}
      rowTestId="fitment-row"
    />
  );
}
