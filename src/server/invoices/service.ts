import { WARRANTY_REPLACEMENT } from "../../contract/orders";
import { and, eq } from "drizzle-orm";
import { seesCompanyInvoices } from "../../contract/companies";
import { invoiceMessages, invoicePdfPath, type InvoiceSummary } from "../../contract/invoices";
import type { PaymentTerms } from "../../contract/terms";
import { membershipOf } from "../companies/membership";
import type { SellerDetails } from "../config";
import type { Db, DbOrTx } from "../db/database";
import { invoices } from "./tables";
import { orders } from "../orders/tables";
import { ownerOrAdmin, type OrderViewer as Viewer } from "../orders/service";
import { notFound } from "../errors";
import { centsToUnits } from "../money";
import { issueInvoice, type InvoiceRow, type IssuedInvoice } from "./issue";

export function createInvoiceService(db: Db, opts: { seller: SellerDetails }) {
  /**
   * The order's invoice, for its owner, an admin, or an owner or viewer of the company it was
   * invoiced to (they see the company's invoices on account); anyone else is told the order does
   * not exist.
   */
  async function visibleInvoice(orderId: string, viewer: Viewer): Promise<InvoiceRow> {
    const [row] = await db
      .select({
        userId: orders.userId,
        status: orders.status,
        paidWith: orders.paidWith,
        invoice: invoices,
      })
      .from(orders)
      .leftJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, "invoice")))
      .where(eq(orders.id, orderId));
    if (!row) throw notFound("Order not found");
    if (!ownerOrAdmin(row.userId, viewer)) {
      // Anyone else only as an owner or viewer of the company it was invoiced to (read only then).
      const companyId = row.invoice?.companyId;
      const m = companyId ? await membershipOf(db, viewer.id) : null;
      if (!m || m.companyId !== companyId || !seesCompanyInvoices(m.role)) {
        throw notFound("Order not found");
      }
    }
    if (!row.invoice) {
      const paid = row.status === "paid" || row.status === "shipped";
      if (row.paidWith === WARRANTY_REPLACEMENT) throw notFound(invoiceMessages.replacement);
      throw notFound(paid ? invoiceMessages.paidBefore : invoiceMessages.notYet);
    }
    return row.invoice;
  }

  return {
    /** Issues the paid order's invoice in the paying transaction (once per order). */
    issue: (tx: DbOrTx, orderId: string, now?: Date): Promise<IssuedInvoice> =>
      issueInvoice(tx, orderId, opts.seller, now),

    /** Issues the invoice of an order placed on account (net terms), due `terms`' days on. */
    issueOnAccount: (tx: DbOrTx, orderId: string, terms: PaymentTerms): Promise<IssuedInvoice> =>
      issueInvoice(tx, orderId, opts.seller, new Date(), terms),

    async summary(orderId: string, viewer: Viewer): Promise<InvoiceSummary> {
      return toSummary(await visibleInvoice(orderId, viewer));
    },

    /** The invoice's PDF, rendered from its snapshot, with the file name to save it as. */
    async pdf(orderId: string, viewer: Viewer): Promise<{ filename: string; bytes: Uint8Array }> {
      const invoice = await visibleInvoice(orderId, viewer);
      return { filename: `${invoice.number}.pdf`, bytes: await renderStored(invoice) };
    },

    /** The PDF of an invoice by its id, for the payment email (no viewer: the mail worker). */
    async pdfById(id: string): Promise<{ filename: string; bytes: Uint8Array }> {
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, id));
      if (!invoice) throw notFound("Invoice not found");
      return { filename: `${invoice.number}.pdf`, bytes: await renderStored(invoice) };
    },
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;

/**
 * An invoice's (or credit note's) PDF, made from its stored record. The PDF library is loaded at
 * the first one: it is some 700 KB of code a process serving pages never runs.
 */
export async function renderStored(invoice: InvoiceRow): Promise<Uint8Array> {
  const { renderInvoicePdf } = await import("./pdf");
  return renderInvoicePdf(
    { number: invoice.number, issuedAt: invoice.issuedAt, dueAt: invoice.dueAt },
    invoice.snapshot,
  );
}

/** An invoice for the wire (an order's invoice answer; the invoices' change cursor, sync/). */
export function toSummary(invoice: InvoiceRow): InvoiceSummary {
  return {
    id: invoice.id,
    number: invoice.number,
    orderId: invoice.orderId,
    issuedAt: invoice.issuedAt.toISOString(),
    dueAt: invoice.dueAt.toISOString(),
    currency: invoice.currency,
    subtotal: centsToUnits(invoice.subtotalCents),
    shipping: centsToUnits(invoice.shippingCents),
    tax: centsToUnits(invoice.taxCents),
    total: centsToUnits(invoice.totalCents),
    paymentTerms: invoice.snapshot.paymentTerms,
    terms: invoice.terms,
    pdfUrl: invoicePdfPath(invoice.orderId),
  };
}
