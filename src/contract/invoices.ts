import { z } from "zod";
import { paymentTermsValues } from "./terms";

/** An order's invoice as the pages show it: its number, when it was issued, its totals. */
export const invoiceSummarySchema = z.object({
  id: z.uuid(),
  /** `INV-2026-000123` */
  number: z.string(),
  orderId: z.uuid(),
  issuedAt: z.iso.datetime({ offset: true }),
  dueAt: z.iso.datetime({ offset: true }),
  currency: z.string(),
  /** Currency units, as every amount on the wire. */
  subtotal: z.number(),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
  paymentTerms: z.string(),
  /** card (paid when issued) or net15/net30/net60: on the company's account, due at `dueAt`. */
  terms: z.enum(paymentTermsValues),
  /** Where the PDF is: `/api/orders/{id}/invoice.pdf`. */
  pdfUrl: z.string(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceMessages = {
  notYet: "This order has no invoice yet: an order gets its invoice when it is paid",
  paidBefore:
    "This order was paid before the store issued invoices: contact us for a copy of its invoice",
  replacement: "A warranty replacement has no invoice: nothing was charged for it",
};

/** The PDF's address, for links. */
export const invoicePdfPath = (orderId: string) => `/api/orders/${orderId}/invoice.pdf`;
