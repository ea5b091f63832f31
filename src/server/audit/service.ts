import { desc } from "drizzle-orm";
import type { AuditEntry, AuditQuery } from "../../contract/audit";
import type { Db, DbOrTx } from "../db/database";
import type { ApiKeyActor } from "../http/request-context";
import { adminAuditLog } from "./tables";
import { pageOf } from "../db/page";

/** Who did it: the signed-in admin (their email is copied, so the row outlives the account). */
export interface AuditActor {
  id: string;
  email: string;
  /** The API key the admin acted through, if any (docs/api-keys.md): the summary names it. */
  apiKey?: ApiKeyActor;
}

const MAX_SUMMARY = 1000;

/** `(via API key "ERP sync", pw_AbCd1234)`: how a row says a key did it. */
export const viaApiKey = (key: ApiKeyActor) => `(via API key "${key.name}", ${key.prefix})`;

/** The summary as written: cut to fit, and ending with the key when one acted. */
function summaryOf(a: AdminAction): string {
  if (!a.actor.apiKey) return a.summary.slice(0, MAX_SUMMARY);
  const via = ` ${viaApiKey(a.actor.apiKey)}`;
  return a.summary.slice(0, MAX_SUMMARY - via.length) + via;
}

export interface AdminAction {
  actor: AuditActor;
  /** What was done, a short dotted name: `user.make-admin`, `product.delete`, `order.ship`… */
  action: string;
  /** What it was done to: `user`, `product`, `order`, `review`, `import`… and its id. */
  target: { type: string; id: string };
  /** One line for people: names, emails, counts (cut at 1,000 characters). */
  summary: string;
}

/**
 * Writes one audit row. Call it with the transaction that makes the change (`tx`), so the
 * row exists exactly when the change does. The time is the database's. An action an API key
 * made (`actor.apiKey`) names the key at the end of its summary.
 */
export async function recordAdminAction(tx: DbOrTx, a: AdminAction): Promise<void> {
  await tx.insert(adminAuditLog).values({
    actorId: a.actor.id,
    actorEmail: a.actor.email,
    action: a.action.slice(0, 64),
    targetType: a.target.type,
    targetId: a.target.id,
    summary: summaryOf(a),
  });
}

/** The audit log, newest first, paged. */
export async function listAdminActions(
  db: Db,
  query: AuditQuery,
): Promise<{ items: AuditEntry[]; total: number }> {
  const { rows, total } = await pageOf(
    db,
    db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.at), desc(adminAuditLog.id)),
    adminAuditLog,
    undefined,
    query,
  );
  return {
    items: rows.map((r) => ({
      _id: r.id,
      at: r.at.toISOString(),
      actorId: r.actorId,
      actorEmail: r.actorEmail,
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      summary: r.summary,
    })),
    total,
  };
}
