import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AccountInvoice,
  InvoicePaymentCreate,
  InvoicePaymentResult,
  InvoiceStatus,
} from "#contract/terms";
import { apiGetPage, apiSend, toQueryString } from "../../../lib/api-client";

const KEY = ["account-invoices"] as const;

/** Invoices on account (net terms) by status, paged (admins). */
export const useAccountInvoices = (query: {
  status: InvoiceStatus;
  limit: number;
  offset: number;
}) =>
  useQuery({
    queryKey: [...KEY, query],
    queryFn: () => apiGetPage<AccountInvoice>(`/invoices${toQueryString(query)}`),
    placeholderData: keepPreviousData,
  });

/** Records a bank payment against an invoice. */
export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { invoiceId: string; body: InvoicePaymentCreate }) =>
      apiSend<InvoicePaymentResult>(
        "POST",
        `/invoices/${encodeURIComponent(input.invoiceId)}/payments`,
        input.body,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
