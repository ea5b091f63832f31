import { useQuery } from "@tanstack/react-query";
import type {
  AccountInvoice,
  InvoicePayment,
  InvoicePaymentCreate,
  InvoicePaymentResult,
  InvoicePaymentReversal,
  InvoiceStatus,
} from "#contract/terms";
import { apiGet, apiSend } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

const KEY = ["account-invoices"] as const;

/** Whose invoices: every company's (admins) or the caller's company's (its owners and viewers). */
export type InvoiceScope = "admin" | "company";

/** Invoices on account (net terms) by status, paged. */
export const useAccountInvoices = (
  scope: InvoiceScope,
  query: { status: InvoiceStatus; limit: number; offset: number },
) =>
  usePageRead<AccountInvoice>(
    [...KEY, scope, query],
    scope === "admin" ? "/invoices" : "/company/invoices",
    query,
  );

/** Records a bank payment against an invoice. */
export function useRecordPayment() {
  return useInvalidatingMutation(
    KEY,
    (input: { invoiceId: string; body: InvoicePaymentCreate }) =>
      apiSend<InvoicePaymentResult>(
        "POST",
        `/invoices/${encodeURIComponent(input.invoiceId)}/payments`,
        input.body,
      ),
    { alsoOnError: true },
  );
}

/** The payments recorded against one invoice, reversed ones included (admins). */
export const useInvoicePayments = (invoiceId: string) =>
  useQuery({
    queryKey: [...KEY, "payments", invoiceId],
    queryFn: () => apiGet<InvoicePayment[]>(`/invoices/${encodeURIComponent(invoiceId)}/payments`),
  });

/** Reverses a payment recorded by mistake, with the reason. */
export function useReversePayment() {
  return useInvalidatingMutation(
    KEY,
    (input: { invoiceId: string; paymentId: string; body: InvoicePaymentReversal }) =>
      apiSend<InvoicePaymentResult>(
        "POST",
        `/invoices/${encodeURIComponent(input.invoiceId)}/payments/${encodeURIComponent(input.paymentId)}/reverse`,
        input.body,
      ),
    { alsoOnError: true },
  );
}
