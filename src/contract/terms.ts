import { z } from "zod";
import { nestedIdParams, pagingQuerySchema } from "./common";
import { moneySchema } from "./pricing";
import { text } from "./text";

/** Net terms (docs/terms.md): a company pays by card, or on account with an invoice due in N days. */

export const paymentTermsValues = ["card", "net15", "net30", "net60"] as const;
export type PaymentTerms = (typeof paymentTermsValues)[number];

/** Days from the invoice's issue to its due date; null: paid by card at the order. */
export const termsDays: Record<PaymentTerms, number | null> = {
  card: null,
  net15: 15,
  net30: 30,
  net60: 60,
};

export const termsLabels: Record<PaymentTerms, string> = {
  card: "Card at checkout",
  net15: "Net 15",
  net30: "Net 30",
  net60: "Net 60",
};

export const paymentTermsSchema = z.enum(paymentTermsValues, {
  error: "Payment terms are card, net15, net30 or net60",
});

/** An order paid on account: its `paidWith`. */
export const ON_ACCOUNT = "invoice" as const;

export const REMINDER_DAYS_BEFORE = 3;
export const REMINDER_DAYS_AFTER = 1;

export const invoiceStatuses = ["open", "overdue", "paid"] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

export const termsMessages = {
  overCreditLimit: (limit: string, open: string) =>
    `This order would take your company over its credit limit of ${limit}; open invoices: ${open}`,
  overpaid: (amount: string, due: string, number: string) =>
    `A payment of ${amount} is more than the ${due} still due on ${number}`,
  alreadyPaid: (number: string) => `${number} is paid in full already`,
  duplicateReference: (reference: string, number: string) =>
    `A payment with reference ${reference} is recorded on ${number} already`,
  notFound: "Invoice not found",
  notOnAccount: "This invoice was paid by card: there is nothing to record against it",
  futureDate: "The payment date cannot be in the future",
  noCompany: "You do not belong to a company",
  paymentNotFound: "Payment not found",
  alreadyReversed: (reference: string) => `The payment ${reference} is reversed already`,
  notForBuyers: "Only your company's owners and viewers see its invoices",
} as const;

export const invoiceListQuerySchema = pagingQuerySchema.extend({
  status: z.enum(invoiceStatuses, { error: "Status is open, overdue or paid" }).default("open"),
});

/** An invoice on account as the admin's list shows it (money in currency units). */
export const accountInvoiceSchema = z.object({
  id: z.uuid(),
  number: z.string(),
  orderId: z.uuid(),
  /** `PW-100234` */
  orderNumber: z.string(),
  companyId: z.uuid().nullable(),
  companyName: z.string().nullable(),
  terms: z.enum(paymentTermsValues),
  issuedAt: z.iso.datetime({ offset: true }),
  dueAt: z.iso.datetime({ offset: true }),
  currency: z.string(),
  total: z.number(),
  paid: z.number(),
  outstanding: z.number(),
  status: z.enum(invoiceStatuses),
  /** Whole days past the due date (0 when not overdue). */
  daysOverdue: z.number().int(),
  pdfUrl: z.string(),
});
export type AccountInvoice = z.infer<typeof accountInvoiceSchema>;

export const invoicePaymentCreateSchema = z.strictObject({
  amount: moneySchema("Amount").refine((v) => v > 0, "Amount must be more than 0"),
  /** The day the money arrived, YYYY-MM-DD. */
  paidOn: z.iso.date({ error: "Payment date must be a date (YYYY-MM-DD)" }),
  reference: text({ error: "Reference is required" })
    .trim()
    .min(1, "Reference is required")
    .max(100, "Reference must be 100 characters or shorter"),
});
export type InvoicePaymentCreate = z.input<typeof invoicePaymentCreateSchema>;

export const invoicePaymentSchema = z.object({
  id: z.uuid(),
  invoiceId: z.uuid(),
  amount: z.number(),
  paidOn: z.string(),
  reference: z.string(),
  recordedAt: z.iso.datetime({ offset: true }),
  recordedBy: z.string(),
  /** Set when the payment was reversed (recorded by mistake): it no longer counts. */
  reversedAt: z.iso.datetime({ offset: true }).nullable(),
  reversedReason: z.string().nullable(),
});
export type InvoicePayment = z.infer<typeof invoicePaymentSchema>;

export const INVOICE_PAYMENT_REVERSAL_REASON_MAX = 200;

/** Reversing a payment recorded by mistake: why, in words the audit log keeps. */
export const invoicePaymentReversalSchema = z.strictObject({
  reason: text({ error: "Say why the payment is reversed" })
    .trim()
    .min(1, "Say why the payment is reversed")
    .max(
      INVOICE_PAYMENT_REVERSAL_REASON_MAX,
      `The reason must be ${INVOICE_PAYMENT_REVERSAL_REASON_MAX} characters or shorter`,
    ),
});
export type InvoicePaymentReversal = z.input<typeof invoicePaymentReversalSchema>;

export const invoicePaymentParamsSchema = nestedIdParams("paymentId");

export const invoicePaymentResultSchema = z.object({
  payment: invoicePaymentSchema,
  invoice: accountInvoiceSchema,
});
export type InvoicePaymentResult = z.infer<typeof invoicePaymentResultSchema>;

/** The transaction id of an order settled on account (no card): `account:<order id>`. */
export const accountTransactionId = (orderId: string) => `account:${orderId}`;
export const isOnAccount = (order: { transactionId: string | null }) =>
  order.transactionId?.startsWith("account:") ?? false;

/** What the buyer is told when an order goes on the company's account. */
export const chargedToAccount = (invoiceNumber: string, dueDate: string) =>
  `Charged to your company's account: invoice ${invoiceNumber} due ${dueDate}`;
