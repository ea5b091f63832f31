import { dayWords } from "../../contract/calendar";
import { orderNumberText } from "../../contract/orders";
import { and, asc, eq, isNull } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  REMINDER_DAYS_AFTER,
  REMINDER_DAYS_BEFORE,
  termsMessages,
  type AccountInvoice,
  type InvoicePayment,
  type InvoicePaymentCreate,
  type InvoicePaymentResult,
  type InvoicePaymentReversal,
  type InvoiceStatus,
  type PaymentTerms,
} from "../../contract/terms";
import { invoicePdfPath } from "../../contract/invoices";
import { recordAdminAction } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { companies, companyMembers } from "../companies/tables";
import { invoicePayments, invoiceReminders } from "./tables";
import { user } from "../users/tables";
import { markAccountSettled } from "../orders/state";
import { conflict, notFound, unprocessable } from "../errors";
import { centsToUnits, formatCents, unitsToCents } from "../money";
import type { TermsMail } from "./mail";
import { type Clock, systemClock } from "../clock";

const DAY_MS = 24 * 60 * 60 * 1000;

/** An invoice on account with what was paid against it (one row of `accountInvoices`). */
type Row = {
  id: string;
  number: string;
  order_id: string;
  order_number: number;
  company_id: string | null;
  company_name: string | null;
  terms: PaymentTerms;
  issued_at: Date | string;
  due_at: Date | string;
  currency: string;
  total_cents: number;
  paid_cents: string | number;
  /** What credit notes on it took off (returns, cancellations): positive. */
  credited_cents: string | number;
};

/** Whether an invoice is paid, overdue (past its due date, not paid) or open, at `now`. */
function statusOf(totalCents: number, paidCents: number, dueAt: Date, now: Date): InvoiceStatus {
  if (paidCents >= totalCents) return "paid";
  return now > dueAt ? "overdue" : "open";
}

function toAccountInvoice(r: Row, now: Date): AccountInvoice {
  const dueAt = new Date(r.due_at);
  const paid = Number(r.paid_cents);
  // A credit note (a return received, docs/returns.md) lowers what is due.
  const dueCents = r.total_cents - Number(r.credited_cents);
  const status = statusOf(dueCents, paid, dueAt, now);
  return {
    id: r.id,
    number: r.number,
    orderId: r.order_id,
    orderNumber: orderNumberText(r.order_number),
    companyId: r.company_id,
    companyName: r.company_name,
    terms: r.terms,
    issuedAt: new Date(r.issued_at).toISOString(),
    dueAt: dueAt.toISOString(),
    currency: r.currency,
    total: centsToUnits(r.total_cents),
    paid: centsToUnits(paid),
    outstanding: centsToUnits(Math.max(dueCents - paid, 0)),
    status,
    daysOverdue: status === "overdue" ? Math.floor((now.getTime() - dueAt.getTime()) / DAY_MS) : 0,
    pdfUrl: invoicePdfPath(r.order_id),
  };
}

/** Invoices on account with their payments and company (the company's name as invoiced). */
const accountInvoices = sql`
  select i.id, i.number, i.order_id, i.company_id, i.terms, i.issued_at, i.due_at, i.currency,
         i.total_cents, i.snapshot->'buyer'->>'company' as company_name,
         (select o.number from orders o where o.id = i.order_id) as order_number,
         coalesce((select sum(p.amount_cents) from invoice_payments p
                    where p.invoice_id = i.id and p.reversed_at is null), 0)
           as paid_cents,
         coalesce((select -sum(c.total_cents) from invoices c
                    where c.kind = 'credit_note' and c.corrects_id = i.id), 0) as credited_cents
    from invoices i
   where i.kind = 'invoice' and i.terms <> 'card'`;

/** Invoices on account by status (paid: payments and credit notes cover the total). */
function statusFilter(status: InvoiceStatus, now: Date) {
  const at = now.toISOString();
  if (status === "paid") return sql`paid_cents + credited_cents >= total_cents`;
  if (status === "overdue") {
    return sql`paid_cents + credited_cents < total_cents and due_at < ${at}::timestamptz`;
  }
  // Open: not paid yet, overdue ones included.
  return sql`paid_cents + credited_cents < total_cents`;
}

/**
 * Keeps an order's words in step with its invoice on account (payment-words.ts): settled once
 * payments and credit notes cover it, and "by credit notes alone" when nothing paid counts (a full
 * return: "Nothing due", not "Paid"); owing again when they no longer cover it (a payment
 * reversed). Called after each change to what covers an invoice: a payment recorded or reversed
 * here, a credit note issued (workflows/refund.ts). An order not on account is left as it is.
 */
export async function syncAccountSettlement(tx: DbOrTx, orderId: string, at: Date): Promise<void> {
  const result = await tx.execute<{ paid_cents: string; covered: boolean }>(
    sql`select paid_cents, ${statusFilter("paid", at)} as covered from (${accountInvoices}) a
         where order_id = ${orderId}`,
  );
  const row = result.rows[0];
  if (!row) return;
  await markAccountSettled(
    tx,
    orderId,
    row.covered ? { at, creditedInFull: Number(row.paid_cents) === 0 } : null,
  );
}

function toPayment(p: typeof invoicePayments.$inferSelect): InvoicePayment {
  return {
    id: p.id,
    invoiceId: p.invoiceId,
    amount: centsToUnits(p.amountCents),
    paidOn: p.paidOn,
    reference: p.reference,
    recordedAt: p.recordedAt.toISOString(),
    recordedBy: p.recordedByEmail,
    reversedAt: p.reversedAt?.toISOString() ?? null,
    reversedReason: p.reversedReason,
  };
}

export interface TermsActor {
  id: string;
  email: string;
}

/**
 * Net terms for admins (docs/terms.md): the invoices on account, payments received against
 * them (bank transfers), and the reminders before and after their due dates.
 */
export function createTermsService(db: Db, opts: { mail?: TermsMail; now?: Clock } = {}) {
  const now = opts.now ?? systemClock;

  async function loadOne(tx: DbOrTx, id: string, at: Date): Promise<AccountInvoice | null> {
    const result = await tx.execute<Row>(
      sql`select * from (${accountInvoices}) a where id = ${id}`,
    );
    const row = result.rows[0];
    return row ? toAccountInvoice(row, at) : null;
  }

  /**
   * An invoice as a bank payment or its reversal left it: its order's settlement synced, and the
   * admin's `action` recorded with the `summary` of what it is now.
   */
  async function paymentRecorded(
    tx: DbOrTx,
    change: { invoiceId: string; at: Date; actor: TermsActor },
    action: string,
    summary: (after: AccountInvoice) => string,
  ): Promise<AccountInvoice> {
    const { invoiceId, at, actor } = change;
    const after = (await loadOne(tx, invoiceId, at))!;
    // Paid in full: the order stops reading "On account · … due …" (payment-words.ts).
    await syncAccountSettlement(tx, after.orderId, at);
    await recordAdminAction(tx, {
      actor,
      action,
      target: { type: "invoice", id: invoiceId },
      summary: summary(after),
    });
    return after;
  }

  /**
   * Invoices on account by status, oldest due date first; `total` for the pager. With
   * `companyId`, one company's only: what its owners and viewers see (`/company/invoices`).
   */
  async function list(
    q: { status: InvoiceStatus; limit: number; offset: number },
    companyId?: string,
  ): Promise<{ items: AccountInvoice[]; total: number }> {
    const at = now();
    const byStatus = statusFilter(q.status, at);
    const where = companyId ? sql`${byStatus} and company_id = ${companyId}` : byStatus;
    const order = q.status === "paid" ? sql`due_at desc, number desc` : sql`due_at, number`;
    const [rows, counted] = await Promise.all([
      db.execute<Row>(sql`select * from (${accountInvoices}) a where ${where}
                           order by ${order} limit ${q.limit} offset ${q.offset}`),
      db.execute<{ n: number }>(
        sql`select count(*)::int as n from (${accountInvoices}) a where ${where}`,
      ),
    ]);
    return {
      items: rows.rows.map((r) => toAccountInvoice(r, at)),
      total: counted.rows[0]?.n ?? 0,
    };
  }

  return {
    list,

    /**
     * Records a payment received (a bank transfer) against an invoice on account. The invoice is
     * locked while it is recorded: two payments at once cannot together pay more than is due.
     */
    async recordPayment(
      actor: TermsActor,
      invoiceId: string,
      input: InvoicePaymentCreate,
    ): Promise<InvoicePaymentResult> {
      const amountCents = unitsToCents(input.amount);
      const at = now();
      if (input.paidOn > at.toISOString().slice(0, 10)) {
        throw unprocessable(termsMessages.futureDate);
      }
      return db.transaction(async (tx) => {
        const locked = await tx.execute<{ terms: string }>(
          sql`select terms from invoices where id = ${invoiceId} and kind = 'invoice' for update`,
        );
        const found = locked.rows[0];
        if (!found) throw notFound(termsMessages.notFound);
        const before = await loadOne(tx, invoiceId, at);
        if (!before) throw unprocessable(termsMessages.notOnAccount);
        const reference = input.reference.trim();
        const [same] = await tx
          .select({ id: invoicePayments.id })
          .from(invoicePayments)
          .where(
            and(
              eq(invoicePayments.invoiceId, invoiceId),
              isNull(invoicePayments.reversedAt),
              sql`lower(${invoicePayments.reference}) = lower(${reference})`,
            ),
          );
        if (same) throw conflict(termsMessages.duplicateReference(reference, before.number));
        const dueCents = unitsToCents(before.outstanding);
        if (dueCents === 0) throw unprocessable(termsMessages.alreadyPaid(before.number));
        if (amountCents > dueCents) {
          throw unprocessable(
            termsMessages.overpaid(
              formatCents(amountCents, before.currency),
              formatCents(dueCents, before.currency),
              before.number,
            ),
          );
        }
        const [payment] = await tx
          .insert(invoicePayments)
          .values({
            invoiceId,
            amountCents,
            paidOn: input.paidOn,
            reference,
            recordedById: actor.id,
            recordedByEmail: actor.email,
          })
          .returning();
        const after = await paymentRecorded(
          tx,
          { invoiceId, at, actor },
          "invoice.payment",
          (inv) =>
            `Recorded a bank payment of ${formatCents(amountCents, before.currency)} on ${before.number}${before.companyName ? ` (${before.companyName})` : ""}, paid ${dayWords(input.paidOn)}, reference ${reference}; ${inv.status === "paid" ? "paid in full" : `${formatCents(unitsToCents(inv.outstanding), before.currency)} still due`}`,
        );
        return { payment: toPayment(payment!), invoice: after };
      });
    },

    /** Admin: the payments recorded against an invoice on account, reversed ones included. */
    async payments(invoiceId: string): Promise<InvoicePayment[]> {
      const rows = await db
        .select()
        .from(invoicePayments)
        .where(eq(invoicePayments.invoiceId, invoiceId))
        .orderBy(asc(invoicePayments.recordedAt), asc(invoicePayments.id));
      if (rows.length === 0 && !(await loadOne(db, invoiceId, now()))) {
        throw notFound(termsMessages.notFound);
      }
      return rows.map(toPayment);
    },

    /**
     * Admin: reverses a payment recorded by mistake (a wrong amount, invoice or reference). It
     * stops counting at once (the invoice may be open or overdue again, and its credit used);
     * the row stays, marked with who reversed it, when and why, and the audit log says so. A
     * correct payment is then recorded as usual. The invoice is locked as when recording.
     */
    async reversePayment(
      actor: TermsActor,
      invoiceId: string,
      paymentId: string,
      input: InvoicePaymentReversal,
    ): Promise<InvoicePaymentResult> {
      const at = now();
      return db.transaction(async (tx) => {
        const locked = await tx.execute(
          sql`select 1 from invoices where id = ${invoiceId} and kind = 'invoice' for update`,
        );
        if (locked.rows.length === 0) throw notFound(termsMessages.notFound);
        const [payment] = await tx
          .select()
          .from(invoicePayments)
          .where(and(eq(invoicePayments.id, paymentId), eq(invoicePayments.invoiceId, invoiceId)));
        if (!payment) throw notFound(termsMessages.paymentNotFound);
        if (payment.reversedAt) throw conflict(termsMessages.alreadyReversed(payment.reference));
        const reason = input.reason.trim();
        const [reversed] = await tx
          .update(invoicePayments)
          .set({ reversedAt: at, reversedReason: reason, reversedByEmail: actor.email })
          .where(eq(invoicePayments.id, paymentId))
          .returning();
        const after = await paymentRecorded(
          tx,
          { invoiceId, at, actor },
          "invoice.payment.reverse",
          (inv) =>
            `Reversed the bank payment of ${formatCents(payment.amountCents, inv.currency)} on ${inv.number}, reference ${payment.reference}: ${reason}; ${formatCents(unitsToCents(inv.outstanding), inv.currency)} now due`,
        );
        return { payment: toPayment(reversed!), invoice: after };
      });
    },

    /**
     * Queues the reminders due at `now`: to each owner of the invoice's company, 3 days before
     * its due date and 1 day after it, each at most once per invoice (`invoice_reminders`,
     * written with the emails in one transaction). A paid invoice gets none. Returns how many
     * reminders were recorded.
     */
    async sendReminders(): Promise<number> {
      const at = now();
      const soon = new Date(at.getTime() + REMINDER_DAYS_BEFORE * DAY_MS).toISOString();
      const late = new Date(at.getTime() - REMINDER_DAYS_AFTER * DAY_MS).toISOString();
      const due = await db.execute<Row & { kind: "before_due" | "overdue" }>(sql`
        select a.*, k.kind from (${accountInvoices}) a
         cross join lateral (
           select 'overdue' as kind where a.due_at <= ${late}::timestamptz
           union all
           select 'before_due' where a.due_at <= ${soon}::timestamptz
                                 and a.due_at > ${at.toISOString()}::timestamptz
         ) k
         where a.paid_cents < a.total_cents and a.company_id is not null
           and not exists (select 1 from invoice_reminders r
                            where r.invoice_id = a.id and r.kind = k.kind)
         order by a.due_at limit 500`);
      let sent = 0;
      for (const r of due.rows) {
        const recorded = await db.transaction(async (tx) => {
          const [fresh] = await tx
            .insert(invoiceReminders)
            .values({ invoiceId: r.id, kind: r.kind })
            .onConflictDoNothing()
            .returning({ invoiceId: invoiceReminders.invoiceId });
          if (!fresh) return false;
          const owners = await tx
            .select({ id: user.id, email: user.email, name: user.name })
            .from(companyMembers)
            .innerJoin(user, eq(user.id, companyMembers.userId))
            .where(
              and(eq(companyMembers.companyId, r.company_id!), eq(companyMembers.role, "owner")),
            );
          const [company] = await tx
            .select({ name: companies.name })
            .from(companies)
            .where(eq(companies.id, r.company_id!));
          const invoice = toAccountInvoice(r, at);
          await opts.mail?.reminder(tx, {
            invoiceId: r.id,
            invoiceNumber: r.number,
            companyName: company?.name ?? r.company_name ?? "your company",
            outstanding: formatCents(unitsToCents(invoice.outstanding), r.currency),
            dueAt: new Date(r.due_at),
            overdue: r.kind === "overdue",
            owners,
          });
          return true;
        });
        if (recorded) sent++;
      }
      return sent;
    },
  };
}

export type TermsService = ReturnType<typeof createTermsService>;
