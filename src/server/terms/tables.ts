import { sql } from "../db/sql";
import { check, date, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import { invoices } from "../invoices/tables";

/**
 * A payment received against an invoice on account (a bank transfer), recorded by an admin. The
 * invoice itself never changes: it is paid when its payments add up to its total.
 */
export const invoicePayments = pgTable(
  "invoice_payments",
  {
    id: uuidPrimaryKey(),
    invoiceId: requiredUuidRef("invoice_id", () => invoices.id, "restrict"),
    amountCents: integer("amount_cents").notNull(),
    /** The day the money arrived (the bank's date). */
    paidOn: date("paid_on").notNull(),
    /** The bank transfer's reference; once per invoice. */
    reference: text("reference").notNull(),
    recordedById: text("recorded_by_id"),
    recordedByEmail: text("recorded_by_email").notNull(),
    recordedAt: timestampNow("recorded_at"),
    /**
     * A payment recorded by mistake is reversed, never deleted: it stops counting, the row and
     * the audit log keep what happened and why.
     */
    reversedAt: timestampTz("reversed_at"),
    reversedReason: text("reversed_reason"),
    reversedByEmail: text("reversed_by_email"),
  },
  (t) => [
    check("invoice_payments_amount_positive", sql`${t.amountCents} > 0`),
    check(
      "invoice_payments_reversal_complete",
      sql`(${t.reversedAt} is null) = (${t.reversedReason} is null)`,
    ),
    // A reference counts once among the payments that stand (a reversed one may be recorded again).
    uniqueIndex("invoice_payments_reference_unique")
      .on(t.invoiceId, sql`lower(${t.reference})`)
      .where(sql`${t.reversedAt} is null`),
  ],
);

export const invoiceReminderKinds = ["before_due", "overdue"] as const;

/** A payment reminder sent for an invoice on account: each kind at most once per invoice. */
export const invoiceReminders = pgTable(
  "invoice_reminders",
  {
    invoiceId: requiredUuidRef("invoice_id", () => invoices.id, "restrict"),
    kind: text("kind", { enum: invoiceReminderKinds }).notNull(),
    sentAt: timestampNow("sent_at"),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.kind] }),
    check("invoice_reminders_kind_valid", sql`${t.kind} in ('before_due', 'overdue')`),
  ],
);
