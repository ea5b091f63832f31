import { dayWords } from "#contract/calendar";
import { useState } from "react";
import {
  SUPPLY_STATUSES,
  supplyKindLabels,
  supplyStatusLabels,
  type IncomingSupply,
  type SupplyStatus,
} from "#contract/supply";
import { ActionDialog } from "../../../components/confirm-dialog";
import { ListTable, StatusBadge, type Column } from "../../../components/data-table";
import { RowButton } from "../../../components/edit-remove-buttons";
import { SelectField } from "../../../components/select-field";
import { notify } from "../../../lib/notify";
import { SUPPLY_PAGE_SIZE, useCancelSupply, useSupplyList } from "../api/supply";
import { AddSupplyDialog, ChangeSupplyDialog, ReceiveSupplyDialog } from "./supply-dialogs";
import { SupplyImportForm } from "./supply-import";

const statusTone: Record<SupplyStatus, string> = {
  open: "badge-info",
  received: "badge-success",
  cancelled: "badge-ghost",
};

/**
 * Admin: incoming supply (docs/inventory.md "Incoming supply"): production runs and purchase
 * orders by status (open by default, soonest expected first); adding, re-dating, receiving and
 * cancelling them, and entering many from a CSV.
 */
export function SupplyPage() {
  const [status, setStatus] = useState<SupplyStatus | "">("open");
  const [page, setPage] = useState(1);
  const list = useSupplyList(status, page);
  const cancel = useCancelSupply();
  const [adding, setAdding] = useState(false);
  const [changing, setChanging] = useState<IncomingSupply>();
  const [receiving, setReceiving] = useState<IncomingSupply>();
  const [cancelling, setCancelling] = useState<IncomingSupply>();
  const columns: Column<IncomingSupply>[] = [
    {
      header: "Supply",
      role: "title",
      cell: (s) => (
        <span className="flex flex-col items-start text-left">
          <span className="font-mono">{s.reference}</span>
          <span className="text-sm font-normal text-base-content/75">
            {supplyKindLabels[s.kind]}
          </span>
        </span>
      ),
    },
    {
      header: "Part",
      cell: (s) => (
        <span>
          <span className="font-mono">{s.partNumber}</span>{" "}
          <span className="max-md:hidden">{s.productName}</span>
        </span>
      ),
    },
    {
      header: "Location",
      cell: (s) => (
        <span title={s.locationName}>
          {s.locationCode}
          {!s.locationActive && <span className="badge badge-ghost badge-sm ml-1">Inactive</span>}
        </span>
      ),
    },
    {
      header: "Received",
      numeric: true,
      testId: "supply-received",
      cell: (s) => `${s.received} of ${s.qty} received`,
    },
    { header: "Expected", cell: (s) => dayWords(s.expectedOn), testId: "supply-expected" },
    {
      header: "Status",
      cell: (s) => (
        <StatusBadge tone={statusTone[s.status]}>{supplyStatusLabels[s.status]}</StatusBadge>
      ),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (s) =>
        s.status === "open" && (
          <>
            <RowButton
              tone="primary"
              label={`Receive ${s.reference}`}
              onClick={() => setReceiving(s)}
            >
              Receive
            </RowButton>
            <RowButton label={`Change date of ${s.reference}`} onClick={() => setChanging(s)}>
              Change date
            </RowButton>
            <RowButton
              tone="danger"
              label={`Cancel ${s.reference}`}
              onClick={() => setCancelling(s)}
            >
              Cancel
            </RowButton>
          </>
        ),
    },
  ];
  const total = list.data?.total ?? 0;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          Add supply
        </button>
        <div className="w-48">
          <SelectField
            label="Status"
            name="supply-status"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as SupplyStatus | "");
              setPage(1);
            }}
          >
            {SUPPLY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {supplyStatusLabels[s]}
              </option>
            ))}
            <option value="">All</option>
          </SelectField>
        </div>
      </div>
      <ListTable
        isPending={list.isPending}
        error={list.error}
        filtered={status !== ""}
        empty="No supply entered yet."
        noMatch={`No ${status === "" ? "" : supplyStatusLabels[status].toLowerCase()} supply.`}
        stale={list.isPlaceholderData}
        page={page}
        pageCount={Math.ceil(total / SUPPLY_PAGE_SIZE)}
        onPage={setPage}
        label="Incoming supply"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(s) => s.id}
        rowTestId="supply"
      />
      <p className="text-sm text-base-content/75">
        Units received go on sale at the supply&apos;s location at once, and the part&apos;s stock
        grows as much. Supply still to come is not stock.
      </p>
      <SupplyImportForm />
      {adding && <AddSupplyDialog onClose={() => setAdding(false)} />}
      {changing && (
        <ChangeSupplyDialog
          key={changing.id}
          supply={changing}
          onClose={() => setChanging(undefined)}
        />
      )}
      {receiving && (
        <ReceiveSupplyDialog
          key={receiving.id}
          supply={receiving}
          onClose={() => setReceiving(undefined)}
        />
      )}
      <ActionDialog
        target={cancelling}
        close={() => setCancelling(undefined)}
        title={cancelling ? `Cancel ${cancelling.reference}?` : ""}
        confirmLabel="Cancel supply"
        action={cancel}
        id={(s) => s.id}
        done={(s) => notify.success(`${s.reference} cancelled`)}
      >
        {(s) =>
          `${s.toCome} of ${s.qty} units of ${s.partNumber} will not come to ${s.locationName}` +
          (s.received > 0 ? `; the ${s.received} received stay on sale.` : ".")
        }
      </ActionDialog>
    </div>
  );
}
