import { plural } from "#contract/count";
import { AUDIT_PAGE_SIZE, type AuditEntry } from "#contract/audit";
import { BreakableEmail, ListTable, type Column } from "../../../components/data-table";
import { formatDateTime } from "../../../lib/format";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useAudit } from "../api/get-audit";

const columns: Column<AuditEntry>[] = [
  {
    header: "When",
    role: "title",
    cell: (e) => <time dateTime={e.at}>{formatDateTime(e.at)}</time>,
  },
  { header: "Who", cell: (e) => <BreakableEmail email={e.actorEmail} /> },
  { header: "Action", cell: (e) => <code className="text-sm">{e.action}</code> },
  { header: "What", cell: (e) => e.summary },
];

/** Every admin action, newest first, paged (the page number is kept in the URL). */
export function AuditLog() {
  const list = useListPage(AUDIT_PAGE_SIZE);
  const answer = useAudit(list.paging);
  const states = useListStates(list, answer, (total) => plural(total, "action"));
  return (
    <ListTable
      {...states}
      empty="No admin actions yet."
      label="Audit log"
      columns={columns}
      rowKey={(e) => e._id}
      rowTestId="audit-row"
    />
  );
}
