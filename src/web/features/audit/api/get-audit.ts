import type { AuditEntry, AuditQuery } from "#contract/audit";
import { usePageRead } from "../../../lib/use-list-page";

export const useAudit = (query: Partial<AuditQuery>) =>
  usePageRead<AuditEntry>(["audit", query], "/audit", query);
