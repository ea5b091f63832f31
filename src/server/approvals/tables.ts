import { sql } from "../db/sql";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, timestampTz } from "../db/columns";
import {
  APPROVAL_SETTINGS_DEFAULTS,
  approvalDecisions,
  approvalReasons,
} from "../../contract/approvals";
import { companies } from "../companies/tables";
import { orders } from "../orders/tables";
import { user } from "../users/tables";

/**
 * A company buyer's order over a spending limit, waiting for (or decided by) an owner of the
 * company it was placed in (docs/approvals.md). One per order; the decision is written once.
 */
export const orderApprovals = pgTable(
  "order_approvals",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The company the buyer ordered for (kept if they leave it later). */
    companyId: requiredUuidRef("company_id", () => companies.id, "cascade"),
    reason: text("reason", { enum: approvalReasons }).notNull(),
    /** The limit it went over, in cents, as it was at the time. */
    limitCents: integer("limit_cents").notNull(),
    requestedAt: timestampNow("requested_at"),
    decision: text("decision", { enum: approvalDecisions }),
    /** Who decided (null once their account is removed; the email stays). */
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedByEmail: text("decided_by_email"),
    decidedAt: timestampTz("decided_at"),
    note: text("note"),
    /** When the owners were reminded that its approval window is about to end (once). */
    remindedAt: timestampTz("reminded_at"),
  },
  (t) => [
    index("order_approvals_waiting_idx")
      .on(t.companyId, t.requestedAt)
      .where(sql`${t.decision} is null`),
    check("order_approvals_reason_valid", sql`${t.reason} in ('order_limit', 'monthly_limit')`),
    check(
      "order_approvals_decision_valid",
      sql`${t.decision} is null or ${t.decision} in ('approved', 'declined')`,
    ),
    check("order_approvals_note_length", sql`char_length(${t.note}) <= 500`),
  ],
);

/**
 * The approval window and the owners' reminder an admin saved (docs/approvals.md, "The approval
 * window"): one row, id 1, written by `settings.ts` alone. No row: the store's defaults
 * (APPROVAL_WINDOW_BUSINESS_DAYS, APPROVAL_REMINDER_HOURS) are in force.
 */
export const approvalSettings = pgTable(
  "approval_settings",
  {
    id: integer("id").primaryKey().default(1),
    windowBusinessDays: integer("window_business_days")
      .notNull()
      .default(APPROVAL_SETTINGS_DEFAULTS.windowBusinessDays),
    /** How long before the window ends the owners are reminded; less than the window. */
    reminderHours: integer("reminder_hours")
      .notNull()
      .default(APPROVAL_SETTINGS_DEFAULTS.reminderHours),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    check("approval_settings_one_row", sql`${t.id} = 1`),
    check(
      "approval_settings_window_valid",
      sql`${t.windowBusinessDays} >= 1 and ${t.windowBusinessDays} <= 30`,
    ),
    check(
      "approval_settings_reminder_valid",
      sql`${t.reminderHours} > 0 and ${t.reminderHours} < ${t.windowBusinessDays} * 24`,
    ),
  ],
);
