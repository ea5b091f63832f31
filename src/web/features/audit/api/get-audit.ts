import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AuditEntry, AuditQuery } from "#contract/audit";
import { apiGetPage, toQueryString } from "../../../lib/api-client";

export const getAudit = (query: Partial<AuditQuery>) =>
  apiGetPage<AuditEntry>(`/audit${toQueryString(query)}`);

export function useAudit(query: Partial<AuditQuery>) {
  return useQuery({
    queryKey: ["audit", query],
    queryFn: () => getAudit(query),
    placeholderData: keepPreviousData,
  });
}
