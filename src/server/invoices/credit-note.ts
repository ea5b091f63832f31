import { and, eq } from "drizzle-orm";
import type { SellerDetails } from "../config";
import type { DbOrTx } from "../db/database";
import { invoicedCompanyOf } from "../companies/membership";
import { invoices } from "./tables";
import { orderItems, orders } from "../orders/tables";
import { notFound } from "../errors";
import {
  coreDepositLine,
  insertNumbered,
  invoiceSnapshot,
  issuedEventFacts,
  type IssuedInvoice,
} from "./issue";
import type { InvoiceLine, InvoiceSnapshot } from "./snapshot";
import { recordWebhookEvent } from "../webhooks/outbox";

/** What a credit note gives back: order lines (quantities and amounts), and shipping. */
export interface CreditedLines {
  /** `coreDeposit`: the line's core deposit given back (a core return), not the part. */
  lines: { line: number; qty: number; netCents: number; taxCents: number; coreDeposit?: boolean }[];
  shippingCents: number;
  shippingTaxCents: number;
  /** Words on the note: "Return of parts (did not fit)", "Order cancelled". */
  reason: string;
  /** How the money goes back: "Refunded to the card it was paid with". */
  paymentTerms: string;
}

/**
 * Issues a credit note for part (or all) of a paid order, in the caller's transaction: the
 * negative of the lines given back and their tax (and shipping, when it is given back), with the
 * original invoice's seller and buyer as issued, numbered from the credit notes' own gapless
 * sequence (`CN-2026-000001`). The number is taken last (see numbering.ts).
 */
export async function issueCreditNote(
  tx: DbOrTx,
  orderId: string,
  credited: CreditedLines,
  seller: SellerDetails,
  now: Date = new Date(),
): Promise<IssuedInvoice> {
  const [original] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "invoice")));
  let base: InvoiceSnapshot;
  if (original) {
    base = original.snapshot;
  } else {
    // Paid before the store issued invoices: the order as it is tells what was sold.
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
    if (!order) throw notFound("Order not found");
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const company = order.userId ? await invoicedCompanyOf(tx, order.userId) : null;
    base = invoiceSnapshot(order, items, seller, company);
  }
  // An invoice with VAT included (docs/tax.md): its note's amounts are gross too, the refund's
  // net and tax together, and its VAT is contained in the total rather than added to it.
  const gross = base.pricesIncludeTax === true;
  const amount = (netCents: number, taxCents: number) => (gross ? netCents + taxCents : netCents);
  const byLine = new Map(base.lines.filter((l) => !l.coreDeposit).map((l) => [l.line, l]));
  const lines: InvoiceLine[] = credited.lines.map((c) => {
    const l = byLine.get(c.line);
    if (c.coreDeposit) {
      // The deposit per unit is what the refund says (the invoice's may predate deposits).
      const part = {
        partNumber: l?.partNumber ?? null,
        productName: l?.description ?? `Line ${c.line}`,
      };
      const line = coreDepositLine(c.line, part, c.qty, c.qty > 0 ? c.netCents / c.qty : 0);
      return { ...line, netCents: -c.netCents, taxCents: 0 };
    }
    return {
      line: c.line,
      partNumber: l?.partNumber ?? null,
      description: l?.description ?? `Line ${c.line}`,
      ...(l?.vehicle !== undefined && { vehicle: l.vehicle }),
      qty: c.qty,
      unitPriceCents: l?.unitPriceCents ?? 0,
      netCents: -amount(c.netCents, c.taxCents),
      taxCents: -c.taxCents,
    };
  });
  const subtotalCents = lines.reduce((s, l) => s + l.netCents, 0);
  const taxableCents = lines.reduce((s, l) => s + (l.coreDeposit ? 0 : l.netCents), 0);
  const taxCents = lines.reduce((s, l) => s + l.taxCents, 0) - credited.shippingTaxCents;
  const shippingCents = -amount(credited.shippingCents, credited.shippingTaxCents);
  const snapshot: InvoiceSnapshot = {
    ...base,
    lines,
    shipping: { ...base.shipping, netCents: shippingCents, taxCents: -credited.shippingTaxCents },
    // A note of deposits alone (a core return) has no taxed amount: no tax row.
    taxes: (taxableCents === 0 && taxCents === 0 ? [] : base.taxes).map((t) => ({
      ...t,
      baseCents:
        taxableCents +
        (credited.shippingTaxCents !== 0 ? shippingCents : 0) -
        (gross ? taxCents : 0),
      taxCents,
    })),
    subtotalCents,
    shippingCents,
    taxCents,
    totalCents: subtotalCents + shippingCents + (gross ? 0 : taxCents),
    paymentTerms: credited.paymentTerms,
    notes: [credited.reason, ...base.notes.filter((n) => n.startsWith("TEST"))],
    creditNote: { corrects: original?.number ?? null, reason: credited.reason },
  };
  // A credit note is paid back as it says, never by a transfer to the store.
  delete snapshot.bankTransfer;
  const row = await insertNumbered(tx, "credit_note", snapshot, {
    orderId,
    correctsId: original?.id ?? null,
    issuedAt: now,
    dueAt: now,
    terms: original?.terms ?? "card",
    companyId: original?.companyId ?? null,
  });
  await recordWebhookEvent(tx, {
    type: "credit_note.issued",
    data: {
      creditNoteId: row.id,
      ...issuedEventFacts(row, orderId, snapshot),
      correctsNumber: original?.number ?? null,
    },
  });
  return row;
}
