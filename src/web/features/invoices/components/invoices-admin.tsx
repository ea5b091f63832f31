import { plural } from "#contract/count";
import { useState } from "react";
import {
  INVOICE_PAYMENT_REVERSAL_REASON_MAX,
  invoicePaymentCreateSchema,
  invoicePaymentReversalSchema,
  invoiceStatuses,
  type AccountInvoice,
  type InvoicePayment,
  type InvoiceStatus,
} from "#contract/terms";
import { ListTable, type Column } from "../../../components/data-table";
import { FormError, FormField, moneyAmount } from "../../../components/form-field";
import { Modal } from "../../../components/modal";
import { formatDate, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import {
  useAccountInvoices,
  useInvoicePayments,
  useRecordPayment,
  useReversePayment,
  type InvoiceScope,
} from "../api/invoices";
import { RowButton } from "../../../components/edit-remove-buttons";

const PAGE_SIZE = 25;

const statusLabels: Record<InvoiceStatus, string> = {
  open: "Open",
  overdue: "Overdue",
  paid: "Paid",
};

const today = () => new Date().toISOString().slice(0, 10);

/** The admin's invoices on account: open, overdue or paid, with Record payment. */
export const InvoicesAdmin = () => <AccountInvoices scope="admin" />;

/** A company's own invoices on account, for its owners and viewers (read only). */
export const CompanyInvoices = () => <AccountInvoices scope="company" />;

function AccountInvoices({ scope }: { scope: InvoiceScope }) {
  const list = useListPage(PAGE_SIZE);
  const status = list.choice("status", invoiceStatuses) ?? "open";
  const answer = useAccountInvoices(scope, { status, ...list.paging });
  const states = useListStates(list, answer, (total) => plural(total, "invoice"));
  const [paying, setPaying] = useState<AccountInvoice>();
  const [viewing, setViewing] = useState<AccountInvoice>();

  const columns: Column<AccountInvoice>[] = [
    {
      header: "Invoice",
      role: "title",
      cell: (i) => (
        <a href={i.pdfUrl} download className="link font-mono">
          {i.number}
        </a>
      ),
    },
    scope === "admin"
      ? { header: "Company", cell: (i) => i.companyName ?? "—" }
      : { header: "Order", cell: (i) => formatOrderNumber(i) },
    { header: "Issued", cell: (i) => <time dateTime={i.issuedAt}>{formatDate(i.issuedAt)}</time> },
    { header: "Due", cell: (i) => <time dateTime={i.dueAt}>{formatDate(i.dueAt)}</time> },
    { header: "Amount", numeric: true, cell: (i) => formatPrice(i.total, i.currency) },
    {
      header: "Outstanding",
      numeric: true,
      cell: (i) => formatPrice(i.outstanding, i.currency),
    },
    {
      header: "Status",
      testId: "invoice-status",
      cell: (i) =>
        i.status === "overdue" ? (
          <span className="badge badge-error">Overdue {plural(i.daysOverdue, "day")}</span>
        ) : (
          <span className={`badge ${i.status === "paid" ? "badge-success" : "badge-ghost"}`}>
            {statusLabels[i.status]}
          </span>
        ),
    },
  ];
  if (scope === "admin") {
    columns.push({
      header: "Actions",
      role: "actions",
      cell: (i) => (
        <span className="flex flex-wrap gap-2">
          {i.status !== "paid" && (
            <RowButton
              label={`Record payment: ${i.number}`}
              tone="primary"
              onClick={() => setPaying(i)}
            >
              Record payment
            </RowButton>
          )}
          {i.paid > 0 && (
            <RowButton label={`Payments: ${i.number}`} onClick={() => setViewing(i)}>
              Payments
            </RowButton>
          )}
        </span>
      ),
    });
  }

  return (
    <div className="flex flex-col gap-4">
      <div role="tablist" aria-label="Invoice status" className="tabs tabs-box w-fit">
        {invoiceStatuses.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={s === status}
            className={`tab ${s === status ? "tab-active" : ""}`}
            onClick={() => list.refine({ status: s === "open" ? undefined : s })}
          >
            {statusLabels[s]}
          </button>
        ))}
      </div>
      <ListTable
        {...states}
        empty={
          status === "paid"
            ? "No invoice on account is paid yet."
            : status === "overdue"
              ? "No invoice is overdue."
              : "No open invoices on account."
        }
        label="Invoices"
        columns={columns}
        rowKey={(i) => i.id}
        rowTestId="invoice-row"
      />
      {paying && <RecordPaymentDialog invoice={paying} onClose={() => setPaying(undefined)} />}
      {viewing && <PaymentsDialog invoice={viewing} onClose={() => setViewing(undefined)} />}
    </div>
  );
}

function RecordPaymentDialog({ invoice, onClose }: { invoice: AccountInvoice; onClose(): void }) {
  const record = useRecordPayment();
  const { field, submitWith, formError } = useApiForm(invoicePaymentCreateSchema, {
    defaultValues: { amount: invoice.outstanding, paidOn: today(), reference: "" },
  });

  return (
    <Modal open title={`Record payment: ${invoice.number}`} onClose={onClose}>
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={submitWith(async (body) => {
          const { invoice: after } = await record.mutateAsync({ invoiceId: invoice.id, body });
          notify.success(
            after.status === "paid"
              ? `${after.number} is paid in full`
              : `Payment recorded: ${formatPrice(after.outstanding, after.currency)} still due on ${after.number}`,
          );
          onClose();
        })}
      >
        <p className="text-sm">
          {invoice.companyName ?? "No company"} ·{" "}
          {formatPrice(invoice.outstanding, invoice.currency)} still due of{" "}
          {formatPrice(invoice.total, invoice.currency)}
        </p>
        <FormField
          label="Amount"
          id="payment-amount"
          {...moneyAmount(0.01)}
          required
          {...field("amount", { valueAsNumber: true })}
        />
        <FormField
          label="Date received"
          id="payment-date"
          type="date"
          max={today()}
          required
          {...field("paidOn")}
        />
        <FormField
          label="Bank reference"
          id="payment-reference"
          maxLength={100}
          required
          {...field("reference")}
        />
        <FormError message={formError} />
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={record.isPending}>
            Record payment
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * The payments recorded against an invoice; one recorded by mistake is reversed with a reason
 * (it stops counting, and stays listed, struck through, with the reason).
 */
function PaymentsDialog({ invoice, onClose }: { invoice: AccountInvoice; onClose(): void }) {
  const { data, error, isPending } = useInvoicePayments(invoice.id);
  const [reversing, setReversing] = useState<InvoicePayment>();

  return (
    <Modal open title={`Payments: ${invoice.number}`} onClose={onClose}>
      <div className="flex flex-col gap-3">
        {isPending && <p>Loading the payments…</p>}
        {error && (
          <p role="alert" className="text-sm text-error">
            {error.message}
          </p>
        )}
        <ul className="flex flex-col gap-2">
          {data?.map((p) => (
            <li key={p.id} className="rounded-box bg-base-200 p-3" data-testid="invoice-payment">
              <p className={p.reversedAt ? "line-through" : ""}>
                {formatPrice(p.amount, invoice.currency)} · {formatDate(p.paidOn)} ·{" "}
                <span className="font-mono">{p.reference}</span>
              </p>
              <p className="text-xs text-base-content/75">Recorded by {p.recordedBy}</p>
              {p.reversedAt ? (
                <p className="text-sm">
                  Reversed {formatDate(p.reversedAt)}: {p.reversedReason}
                </p>
              ) : reversing?.id === p.id ? (
                <ReverseForm invoice={invoice} payment={p} onDone={() => setReversing(undefined)} />
              ) : (
                <button
                  type="button"
                  className="btn btn-sm mt-2"
                  onClick={() => setReversing(p)}
                  aria-label={`Reverse payment ${p.reference}`}
                >
                  Reverse…
                </button>
              )}
            </li>
          ))}
        </ul>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** Why a payment is reversed, asked under it in the payments dialog. */
function ReverseForm({
  invoice,
  payment,
  onDone,
}: {
  invoice: AccountInvoice;
  payment: InvoicePayment;
  onDone(): void;
}) {
  const reverse = useReversePayment();
  const { field, submitWith, formError } = useApiForm(invoicePaymentReversalSchema, {
    defaultValues: { reason: "" },
  });
  return (
    <form
      className="mt-2 flex flex-col gap-2"
      noValidate
      onSubmit={submitWith(async (body) => {
        const { invoice: after } = await reverse.mutateAsync({
          invoiceId: invoice.id,
          paymentId: payment.id,
          body,
        });
        notify.success(
          `Payment ${payment.reference} reversed: ${formatPrice(after.outstanding, after.currency)} now due on ${after.number}`,
        );
        onDone();
      })}
    >
      <FormField
        label="Why is it reversed?"
        id={`reverse-reason-${payment.id}`}
        maxLength={INVOICE_PAYMENT_REVERSAL_REASON_MAX}
        required
        {...field("reason")}
      />
      <FormError message={formError} />
      <div className="flex gap-2">
        <button type="button" className="btn btn-sm" onClick={onDone}>
          Keep it
        </button>
        <button type="submit" className="btn btn-sm btn-error" disabled={reverse.isPending}>
          Reverse payment
        </button>
      </div>
    </form>
  );
}
