import { and, eq } from "drizzle-orm";
import { adminAuditLog } from "../../src/server/audit/tables";
import type { DbOrTx } from "../../src/server/db/database";

/** The admin audit log's rows of `action` on the record `targetId` (an order, a claim, a quote). */
export const auditRowsOf = (db: DbOrTx, action: string, targetId: string) =>
  db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.action, action), eq(adminAuditLog.targetId, targetId)));
