import { useState } from "react";
import { invoiceStatuses, type AccountInvoice, type InvoiceStatus } from "#contract/terms";
import { DataTable, ListStates, type Column } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { Modal } from "../../../components/modal";
import { ApiError } from "../../../lib/api-client";
import { formatDate, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useAccountInvoices, useRecordPayment, type InvoiceScope } from "../api/invoices";

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
      cell: (i) =>
        i.status === "paid" ? null : (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={() => setPaying(i)}
            aria-label={`Record payment: ${i.number}`}
          >
            Record payment
          </button>
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
