import { plural } from "#contract/count";
import { useState } from "react";
import { APPROVAL_NOTE_MAX, approvalMessages, type Approval } from "#contract/approvals";
import { ListTable, NameAndEmail, type Column } from "../../../components/data-table";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { SearchForm } from "../../../components/search-form";
import { formatDateTime, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useApprovals, useDecideApproval } from "../api/approvals";
import { RowButton } from "../../../components/edit-remove-buttons";

const PAGE_SIZE = 25;

type Pending = { approval: Approval; action: "approve" | "decline" };

/**
 * Orders awaiting approval (docs/approvals.md): for a company's owner, with Approve and Decline
 * (each with an optional note for the buyer); read only for an admin. `?order=` (the emailed
 * link) puts that order first, marked.
 */
export function ApprovalsTable({ readOnly = false }: { readOnly?: boolean }) {
  const list = useListPage(PAGE_SIZE);
  const { q } = list;
  const emailed = list.params.get("order");
  // The email's link names the order's number too, for when it is no longer listed here.
  const emailedNumber = list.params.get("number");
  const answer = useApprovals(list.query);
  const states = useListStates(
    list,
    answer,
    (total) => `${plural(total, "order awaits", "orders await")} approval`,
  );
  const { data, isPlaceholderData } = answer;
  const decide = useDecideApproval();
  const [pending, setPending] = useState<Pending>();
  const [note, setNote] = useState("");

  const rows = [...(data?.items ?? [])].sort(
    (a, b) => Number(b.orderId === emailed) - Number(a.orderId === emailed),
  );
  const emailedGone =
    emailed && data && !isPlaceholderData && !data.items.some((a) => a.orderId === emailed);

  const columns: Column<Approval>[] = [
    {
      header: "Order",
      role: "title",
      cell: (a) => (
        <span className="flex flex-col gap-0.5">
          <span>
            Order {formatOrderNumber(a)}
            {a.orderId === emailed && (
              <span className="badge badge-info badge-sm ml-2">From your email</span>
            )}
          </span>
          <span className="text-xs font-normal text-base-content/75">
            {readOnly ? `${a.companyName} · ` : ""}
            {approvalMessages.reason(a.reason, formatPrice(a.limit, a.currency))}
          </span>
        </span>
      ),
    },
    {
      header: "Buyer",
      cell: (a) => <NameAndEmail name={a.buyerName} email={a.buyerEmail} />,
    },
    {
      header: "Parts",
      cell: (a) => (
        <ul className="flex flex-col gap-0.5 max-md:items-end">
          {a.items.map((l, i) => (
            <li key={i}>
              {l.qty} × {l.productName}
              {l.partNumber && (
                <span className="text-xs text-base-content/75"> ({l.partNumber})</span>
              )}
            </li>
          ))}
          {a.poReference && <li className="text-xs text-base-content/75">PO {a.poReference}</li>}
        </ul>
      ),
    },
    {
      header: "Total",
      numeric: true,
      testId: "approval-total",
      cell: (a) => formatPrice(a.total, a.currency),
    },
    {
      header: "Decide by",
      from: "lg",
      cell: (a) => formatDateTime(a.holdExpiresAt),
    },
    ...(readOnly
      ? []
      : [
          {
            header: "Actions",
            role: "actions" as const,
            cell: (a: Approval) => (
              <>
                <RowButton
                  label={`Approve order ${formatOrderNumber(a)}`}
                  tone="primary"
                  onClick={() => setPending({ approval: a, action: "approve" })}
                >
                  Approve
                </RowButton>
                <RowButton
                  label={`Decline order ${formatOrderNumber(a)}`}
                  tone="danger"
                  onClick={() => setPending({ approval: a, action: "decline" })}
                >
                  Decline
                </RowButton>
              </>
            ),
          },
        ]),
  ];

  const close = () => {
    decide.reset();
    setPending(undefined);
    setNote("");
  };

  return (
    <div className="flex flex-col gap-4">
      {emailedGone && (
        <p role="status" className="alert">
          {emailedNumber ? `Order ${emailedNumber}` : "The order"} is no longer awaiting approval:
          it was decided already, withdrawn by the buyer, or its hold ended.
        </p>
      )}
      <SearchForm
        label="Search approvals"
        placeholder="Buyer, email, company, order number, part or PO"
        value={q}
        onSearch={list.search}
      />
      <ListTable
        {...states}
        filtered={q !== ""}
        empty="No orders are awaiting approval."
        noMatch={`No order awaiting approval matches “${q}”.`}
        label="Orders awaiting approval"
        columns={columns}
        rows={rows}
        rowKey={(a) => a.orderId}
        rowTestId="approval-row"
      />
      <ConfirmDialog
        open={pending !== undefined}
        title={
          pending
            ? `${pending.action === "approve" ? "Approve" : "Decline"} order ${formatOrderNumber(pending.approval)}?`
            : ""
        }
        confirmLabel={pending?.action === "approve" ? "Approve" : "Decline"}
        tone={pending?.action === "approve" ? "positive" : "danger"}
        busy={decide.isPending}
        error={decide.error?.message}
        onCancel={close}
        onConfirm={() => {
          if (!pending) return;
          decide.mutate(
            {
              orderId: pending.approval.orderId,
              action: pending.action,
              body: note.trim() ? { note: note.trim() } : {},
            },
            {
              onSuccess: (outcome) => {
                notify.success(
                  outcome.decision === "approved"
                    ? `Approved: ${pending.approval.buyerName || pending.approval.buyerEmail} can pay now`
                    : "Declined: the order is cancelled and its parts went back on sale",
                );
                close();
              },
            },
          );
        }}
      >
        {pending && (
          <div className="flex flex-col gap-3">
            <p>
              {pending.action === "approve"
                ? `${pending.approval.buyerName || pending.approval.buyerEmail} can then pay ${formatPrice(pending.approval.total, pending.approval.currency)} for it.`
                : "The order is cancelled and its parts go back on sale."}{" "}
              We email the buyer your answer.
            </p>
            <label className="flex flex-col gap-1">
              <span className="text-sm font-medium">Note for the buyer (optional)</span>
              <textarea
                className="textarea textarea-bordered w-full"
                maxLength={APPROVAL_NOTE_MAX}
                rows={3}
                value={note}
                onChange={(e) => setNote(e.target.value)}
              />
              <span className="text-xs text-base-content/75">
                {note.length}/{APPROVAL_NOTE_MAX}
              </span>
            </label>
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
