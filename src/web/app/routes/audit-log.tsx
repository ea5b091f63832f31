import { TitledPage } from "../../components/page-title";
import { AuditLog } from "../../features/audit/components/audit-log";

export function AuditLogRoute() {
  return (
    <TitledPage title="Audit Log">
      <AuditLog />
    </TitledPage>
  );
}
