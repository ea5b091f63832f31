import { AUDIT_PAGE_SIZE, type AuditEntry } from "#contract/audit";
import { BreakableEmail, DataTable, ListStates, type Column } from "../../../components/data-table";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useAudit } from "../api/get-audit";

const columns: Column<AuditEntry>[] = [
  {
    header: "When",
    role: "title",
    cell: (e) => <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time>,
  },
  { header: "Who", cell: (e) => <BreakableEmail email={e.actorEmail} /> },
  { header: "Action", cell: (e) => <code className="text-sm">{e.action}</code> },
  { header: "What", cell: (e) => e.summary },
];

/** Every admin action, newest first, paged (the page number is kept in the URL). */
export function AuditLog() {
  const [params, update] = useUrlParams();
  const page = pageParam(params, AUDIT_PAGE_SIZE);
  const { data, error, isPending, isPlaceholderData } = useAudit({
    limit: AUDIT_PAGE_SIZE,
    offset: (page - 1) * AUDIT_PAGE_SIZE,
  });
  const pageCount = data ? Math.max(1, Math.ceil(data.total / AUDIT_PAGE_SIZE)) : 1;
  useStayWithinPages(page, data && !isPlaceholderData ? pageCount : undefined, update);
  return (
    <ListStates
      isPending={isPending}
      error={error}
      count={data?.items.length}
      filtered={false}
      empty="No admin actions yet."
      noMatch=""
      summary={data && `${data.total} ${data.total === 1 ? "action" : "actions"}`}
      stale={isPlaceholderData}
      page={page}
      pageCount={pageCount}
      onPage={(p) => update({ page: p === 1 ? undefined : String(p) })}
    >
      <DataTable
        label="Audit log"
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(e) => e._id}
        rowTestId="audit-row"
      />
    </ListStates>
  );
}
