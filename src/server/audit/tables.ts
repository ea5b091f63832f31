import { sql } from "../db/sql";
import { check, index, pgTable, text } from "drizzle-orm/pg-core";
import { timestampNow, uuidPrimaryKey } from "../db/columns";

/**
 * The audit log: one row per admin action, written in the action's own transaction
 * (src/server/audit/). The actor's id and email are copied, so a row outlives a removed admin.
 */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: uuidPrimaryKey(),
    at: timestampNow("at"),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    summary: text("summary").notNull(),
  },
  (t) => [
    index("admin_audit_log_at_idx").on(t.at.desc(), t.id.desc()),
    check("admin_audit_log_action_length", sql`char_length(${t.action}) <= 64`),
    check("admin_audit_log_summary_length", sql`char_length(${t.summary}) <= 1000`),
  ],
);
