import { eq } from "drizzle-orm";
import { formatAddress } from "../../contract/addresses";
import { dueDateWords } from "../../contract/payment-words";
import type { SellerDetails } from "../config";
import type { DbOrTx } from "../db/database";
import { invoicedCompanyOf } from "../companies/membership";
import { invoices, type DocumentKind } from "./tables";
import { orderItems, orders } from "../orders/tables";
import { notFound } from "../errors";
import { orderNumberText } from "../../contract/orders";
import { termsDays, termsLabels, type PaymentTerms } from "../../contract/terms";
import { documentNumber, nextSequence, numberingYear } from "./numbering";
import type { InvoiceLine, InvoiceSnapshot } from "./snapshot";
import { recordWebhookEvent } from "../webhooks/outbox";
import { centsToUnits } from "../money";

type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

/** What a paying transaction learns of the invoice it issued (the payment email attaches it). */
export interface IssuedInvoice {
  id: string;
  number: string;
  dueAt: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When an invoice issued at `issuedAt` on these terms is due (card: the issue date, paid already). */
export const dueDateOf = (issuedAt: Date, terms: PaymentTerms): Date =>
  new Date(issuedAt.getTime() + (termsDays[terms] ?? 0) * DAY_MS);

/**
 * The words of an invoice on account's terms: "Net 30: pay by bank transfer by 26 Dec 2026", the
 * due date as the invoice's "Due date" says it.
 */
export const onAccountTerms = (terms: PaymentTerms, dueAt: Date): string =>
  `${termsLabels[terms]}: pay by bank transfer by ${dueDateWords(dueAt)}, quoting the invoice number`;

/** The words of a paid-by-card invoice's terms. */
export const PAID_BY_CARD = "Paid by card: nothing is due";
export const TEST_PAYMENT_NOTE = "TEST payment: paid with a test card; no money was taken.";

/** The line of a core deposit: `qty` cores of an order line at `depositCents` each, untaxed. */
export function coreDepositLine(
  line: number,
  part: { partNumber: string | null; productName: string },
  qty: number,
  depositCents: number,
): InvoiceLine {
  return {
    line,
    partNumber: part.partNumber,
    description: `Core deposit: ${part.productName}`,
    qty,
    unitPriceCents: depositCents,
    netCents: depositCents * qty,
    taxCents: 0,
    coreDeposit: true,
  };
}

/**
 * What the invoice of a paid order says, from the order as it is at that moment (pure; the
 * snapshot is stored and never recomputed).
 */
export function invoiceSnapshot(
  order: OrderRow,
  items: ItemRow[],
  seller: SellerDetails,
  company: { name: string; taxId: string | null } | null,
  account?: { terms: PaymentTerms; dueAt: Date },
): InvoiceSnapshot {
  const lines: InvoiceLine[] = items.flatMap((i) => [
    {
      line: i.line,
      partNumber: i.partNumber,
      description: i.productName,
      ...(i.vehicleLabel !== null && { vehicle: i.vehicleLabel }),
      qty: i.qty,
      unitPriceCents: i.unitPriceCents,
      netCents: i.unitPriceCents * i.qty,
      taxCents: i.taxCents,
    },
    // A core deposit is its own line, untaxed (docs/core-charges.md).
    ...(i.coreDepositCents > 0 ? [coreDepositLine(i.line, i, i.qty, i.coreDepositCents)] : []),
  ]);
  // The subtotal is every line's net (deposits included); the tax base is the parts' alone.
  const subtotalCents = lines.reduce((sum, l) => sum + l.netCents, 0);
  // A discount code's amount came off the parts before tax (docs/pricing.md "Discount codes").
  const taxableCents =
    lines.reduce((sum, l) => sum + (l.coreDeposit ? 0 : l.netCents), 0) - order.discountCents;
  const shipTo = order.shipTo;
  const address = shipTo
    ? [
        shipTo.line1,
        shipTo.line2,
        formatAddress({ ...shipTo, name: "", company: "", line1: "", line2: "" }),
      ].filter((l) => l.trim() !== "")
    : [order.address];
  // One rate per order today (tax/rules.ts): its base is the lines, plus shipping where taxed.
  const taxes =
    order.taxName !== null && order.taxRateMillipercent !== null
      ? [
          {
            name: order.taxName,
            rateMillipercent: order.taxRateMillipercent,
            // Shipping is in the base when taxed, and under a 0 % treatment (reverse charge,
            // exemption), which covers it as it covers the lines (docs/tax.md).
            baseCents:
              taxableCents +
              (order.shippingTaxCents > 0 || order.taxNote !== null ? order.shippingCents : 0) -
              // Gross amounts contain their VAT: the base is what is left (docs/tax.md).
              (order.pricesIncludeTax ? order.taxCents : 0),
            taxCents: order.taxCents,
          },
        ]
      : [];
  const test = order.paidWith === "test-card";
  const { bank, ...registered } = seller;
  return {
    seller: { ...registered, address: [...seller.address] },
    buyer: {
      name: order.customerName,
      email: order.orderEmail,
      address,
      company: company?.name ?? (shipTo?.company || null),
      // Reverse charge and exemptions print the tax id the order was placed under.
      taxId: order.buyerTaxId ?? company?.taxId ?? null,
    },
    order: {
      id: order.id,
      number: orderNumberText(order.number),
      placedAt: order.createdAt.toISOString(),
      poReference: order.poReference,
    },
    lines,
    shipping: {
      method: order.shippingMethod,
      netCents: order.shippingCents,
      taxCents: order.shippingTaxCents,
    },
    taxes,
    subtotalCents,
    ...(order.discountCode
      ? { discount: { code: order.discountCode, cents: order.discountCents } }
      : {}),
    shippingCents: order.shippingCents,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    ...(order.pricesIncludeTax ? { pricesIncludeTax: true } : {}),
    currency: order.currency,
    paymentTerms: account ? onAccountTerms(account.terms, account.dueAt) : PAID_BY_CARD,
    payment: account
      ? { gateway: null, transactionId: null, test: false }
      : { gateway: order.paidWith, transactionId: order.transactionId, test },
    notes: [...(order.taxNote ? [order.taxNote] : []), ...(test ? [TEST_PAYMENT_NOTE] : [])],
    ...(account &&
      bank && {
        bankTransfer: {
          payee: seller.legalName ?? seller.name,
          bank: bank.name,
          account: bank.account,
          code: bank.code,
        },
      }),
  };
}

/**
 * Inserts an invoice or credit note with its snapshot and the snapshot's totals, numbered from its
 * kind's sequence, taken here, last (numbering.ts); answers its id, number and due date.
 */
export async function insertNumbered(
  tx: DbOrTx,
  kind: DocumentKind,
  snapshot: InvoiceSnapshot,
  row: {
    orderId: string;
    /** A credit note: the invoice it corrects. */
    correctsId?: string | null;
    issuedAt: Date;
    dueAt: Date;
    terms: PaymentTerms;
    companyId: string | null;
  },
): Promise<IssuedInvoice> {
  const year = numberingYear(row.issuedAt);
  const sequence = await nextSequence(tx, kind, year);
  const [inserted] = await tx
    .insert(invoices)
    .values({
      kind,
      number: documentNumber(kind, year, sequence),
      year,
      sequence,
      ...row,
      currency: snapshot.currency,
      subtotalCents: snapshot.subtotalCents,
      shippingCents: snapshot.shippingCents,
      taxCents: snapshot.taxCents,
      totalCents: snapshot.totalCents,
      snapshot,
    })
    .returning({ id: invoices.id, number: invoices.number, dueAt: invoices.dueAt });
  return inserted!;
}

/** What the webhook event of an issued invoice or credit note says of it: number, order, total. */
export const issuedEventFacts = (
  row: IssuedInvoice,
  orderId: string,
  snapshot: InvoiceSnapshot,
) => ({
  number: row.number,
  orderId,
  total: centsToUnits(snapshot.totalCents),
  currency: snapshot.currency,
});

/**
 * Issues the invoice of a paid order inside the paying transaction, once: an order that has one
 * keeps it (a replayed payment issues nothing new). The caller holds the order's row lock
 * (payments/service.ts `markPaid`), so two payments of one order cannot both get here first.
 * The number is taken last, so other payments wait on the counter only for the insert and the
 * commit.
 */
export async function issueInvoice(
  tx: DbOrTx,
  orderId: string,
  seller: SellerDetails,
  now: Date = new Date(),
  terms: PaymentTerms = "card",
): Promise<IssuedInvoice> {
  const [existing] = await tx
    .select({ id: invoices.id, number: invoices.number, dueAt: invoices.dueAt })
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .limit(1);
  if (existing) return existing;
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw notFound("Order not found");
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.line);
  const company = order.userId ? await invoicedCompanyOf(tx, order.userId) : null;
  const dueAt = dueDateOf(now, terms);
  const snapshot = invoiceSnapshot(
    order,
    items,
    seller,
    company,
    terms === "card" ? undefined : { terms, dueAt },
  );
  // Card payments are paid when the invoice is issued: due the same day; on account, N days on.
  const row = await insertNumbered(tx, "invoice", snapshot, {
    orderId,
    issuedAt: now,
    dueAt,
    terms,
    companyId: company?.id ?? null,
  });
  await recordWebhookEvent(tx, {
    type: "invoice.issued",
    data: {
      invoiceId: row.id,
      ...issuedEventFacts(row, orderId, snapshot),
      dueAt: row.dueAt.toISOString(),
      terms,
    },
  });
  return row;
}
