import { z } from "zod";
import { pagingQuery } from "./common";

/** Entries shown per page on the admin's audit log page (the API's default `limit`). */
export const AUDIT_PAGE_SIZE = 50;

/** One admin action: who, what, when (`GET /api/audit`). */
export const auditEntrySchema = z.object({
  _id: z.string(),
  at: z.iso.datetime({ offset: true }),
  actorId: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  summary: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = pagingQuery(AUDIT_PAGE_SIZE);
export type AuditQuery = z.infer<typeof auditQuerySchema>;
