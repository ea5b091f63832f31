import { useState } from "react";
import {
  INVOICE_PAYMENT_REVERSAL_REASON_MAX,
  invoiceStatuses,
  type AccountInvoice,
  type InvoicePayment,
  type InvoiceStatus,
} from "#contract/terms";
import { DataTable, ListStates, type Column } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { Modal } from "../../../components/modal";
import { ApiError } from "../../../lib/api-client";
import { formatDate, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import {
  useAccountInvoices,
  useInvoicePayments,
  useRecordPayment,
  useReversePayment,
  type InvoiceScope,
} from "../api/invoices";

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
  const [params, update] = useUrlParams();
  const status = (invoiceStatuses as readonly string[]).includes(params.get("status") ?? "")
    ? (params.get("status") as InvoiceStatus)
    : "open";
  const page = pageParam(params, PAGE_SIZE);
  const { data, error, isPending, isPlaceholderData } = useAccountInvoices(scope, {
    status,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  useStayWithinPages(page, data && !isPlaceholderData ? pageCount : undefined, update);
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
      : { header: "Order", cell: (i) => formatOrderNumber(i.orderId) },
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
          <span className="badge badge-error">
            Overdue {i.daysOverdue} {i.daysOverdue === 1 ? "day" : "days"}
          </span>
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
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={() => setPaying(i)}
              aria-label={`Record payment: ${i.number}`}
            >
              Record payment
            </button>
          )}
          {i.paid > 0 && (
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => setViewing(i)}
              aria-label={`Payments: ${i.number}`}
            >
              Payments
            </button>
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
            onClick={() => update({ status: s === "open" ? undefined : s, page: undefined })}
          >
            {statusLabels[s]}
          </button>
        ))}
      </div>
      <ListStates
        isPending={isPending}
        error={error}
        count={data?.items.length}
        filtered={false}
        empty={
          status === "paid"
            ? "No invoice on account is paid yet."
            : status === "overdue"
              ? "No invoice is overdue."
              : "No open invoices on account."
        }
        noMatch=""
        summary={data && `${data.total} ${data.total === 1 ? "invoice" : "invoices"}`}
        stale={isPlaceholderData}
        page={page}
        pageCount={pageCount}
        onPage={(p) => update({ page: p === 1 ? undefined : String(p) })}
      >
        <DataTable
          label="Invoices"
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(i) => i.id}
          rowTestId="invoice-row"
        />
      </ListStates>
      {paying && <RecordPaymentDialog invoice={paying} onClose={() => setPaying(undefined)} />}
      {viewing && <PaymentsDialog invoice={viewing} onClose={() => setViewing(undefined)} />}
    </div>
  );
}

function RecordPaymentDialog({ invoice, onClose }: { invoice: AccountInvoice; onClose(): void }) {
  const record = useRecordPayment();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string>();

  const submit = async (form: FormData) => {
    setErrors({});
    setRefusal(undefined);
    const amountText = String(form.get("amount") ?? "").trim();
    try {
      const { invoice: after } = await record.mutateAsync({
        invoiceId: invoice.id,
        body: {
          amount: amountText === "" ? Number.NaN : Number(amountText),
          paidOn: String(form.get("paidOn") ?? ""),
          reference: String(form.get("reference") ?? ""),
        },
      });
      notify.success(
        after.status === "paid"
          ? `${after.number} is paid in full`
          : `Payment recorded: ${formatPrice(after.outstanding, after.currency)} still due on ${after.number}`,
      );
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.fields) setErrors(err.fields);
      setRefusal((err as Error).message);
    }
  };

  return (
    <Modal open title={`Record payment: ${invoice.number}`} onClose={onClose}>
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(new FormData(e.currentTarget));
        }}
      >
        <p className="text-sm">
          {invoice.companyName ?? "No company"} ·{" "}
          {formatPrice(invoice.outstanding, invoice.currency)} still due of{" "}
          {formatPrice(invoice.total, invoice.currency)}
        </p>
        <FormField
          label="Amount"
          name="amount"
          id="payment-amount"
          type="number"
          min="0.01"
          step="0.01"
          defaultValue={invoice.outstanding}
          error={errors.amount}
          required
        />
        <FormField
          label="Date received"
          name="paidOn"
          id="payment-date"
          type="date"
          max={today()}
          defaultValue={today()}
          error={errors.paidOn}
          required
        />
        <FormField
          label="Bank reference"
          name="reference"
          id="payment-reference"
          maxLength={100}
          error={errors.reference}
          required
        />
        {refusal && (
          <p role="alert" className="text-sm text-error">
            {refusal}
          </p>
        )}
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
  const reverse = useReversePayment();
  const [reversing, setReversing] = useState<InvoicePayment>();
  const [refusal, setRefusal] = useState<string>();

  const submit = async (payment: InvoicePayment, form: FormData) => {
    setRefusal(undefined);
    try {
      const { invoice: after } = await reverse.mutateAsync({
        invoiceId: invoice.id,
        paymentId: payment.id,
        body: { reason: String(form.get("reason") ?? "") },
      });
      notify.success(
        `Payment ${payment.reference} reversed: ${formatPrice(after.outstanding, after.currency)} now due on ${after.number}`,
      );
      setReversing(undefined);
    } catch (err) {
      setRefusal((err as Error).message);
    }
  };

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
                <form
                  className="mt-2 flex flex-col gap-2"
                  noValidate
                  onSubmit={(e) => {
                    e.preventDefault();
                    void submit(p, new FormData(e.currentTarget));
                  }}
                >
                  <FormField
                    label="Why is it reversed?"
                    name="reason"
                    id={`reverse-reason-${p.id}`}
                    maxLength={INVOICE_PAYMENT_REVERSAL_REASON_MAX}
                    required
                  />
                  {refusal && (
                    <p role="alert" className="text-sm text-error">
                      {refusal}
                    </p>
                  )}
                  <div className="flex gap-2">
                    <button
                      type="button"
                      className="btn btn-sm"
                      onClick={() => setReversing(undefined)}
                    >
                      Keep it
                    </button>
                    <button
                      type="submit"
                      className="btn btn-sm btn-error"
                      disabled={reverse.isPending}
                    >
                      Reverse payment
                    </button>
                  </div>
                </form>
              ) : (
                <button
                  type="button"
                  className="btn btn-sm mt-2"
                  onClick={() => {
                    setRefusal(undefined);
                    setReversing(p);
                  }}
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
