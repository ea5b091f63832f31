import { usePageTitle } from "../../components/page-title";
import { AuditLog } from "../../features/audit/components/audit-log";

export function AuditLogRoute() {
  usePageTitle("Audit Log");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Audit Log</h1>
      <AuditLog />
    </div>
  );
}
