import { plural } from "#contract/count";
import { IMPORTS_PAGE_SIZE, importWords, type ImportRecord } from "#contract/imports";
import { ListTable, type Column } from "../../../components/data-table";
import { formatCount, formatDateTime } from "../../../lib/format";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useImports } from "../api/imports";
import { ImportUploadForm } from "./import-upload-form";
import { ImportRecordPanel } from "./import-record";
import { RowButton } from "../../../components/edit-remove-buttons";

/**
 * Imports (admins, docs/imports.md): upload an ACES or PIES file, read its preview, import it and follow
 * it; below, the recent imports. The import shown is kept in the URL (`?import=`).
 */
export function ImportsPage() {
  const list = useListPage(IMPORTS_PAGE_SIZE);
  const shown = list.params.get("import") ?? undefined;
  const show = (id: string) => list.update({ import: id });
  const answer = useImports(list.paging);
  const states = useListStates(list, answer, (total) => plural(total, "import"));

  const columns: Column<ImportRecord>[] = [
    {
      header: "Uploaded",
      role: "title",
      cell: (r) => <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>,
    },
    { header: "File", cell: (r) => <span className="break-all">{r.fileName}</span> },
    { header: "Kind", from: "lg", cell: (r) => importWords.kinds[r.kind] },
    { header: "Brand", cell: (r) => r.brand },
    { header: "Status", cell: (r) => importWords.status[r.status] },
    {
      header: "Applications or items",
      numeric: true,
      from: "lg",
      cell: (r) => formatCount(r.pies ? r.pies.items : r.counts.applications),
    },
    {
      header: "Actions",
      role: "actions",
      cell: (r) => (
        <RowButton
          label={`Show import of ${r.fileName}`}
          disabled={r.id === shown}
          onClick={() => show(r.id)}
        >
          Show
        </RowButton>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ImportUploadForm onUploaded={show} />
      {shown && <ImportRecordPanel key={shown} id={shown} />}
      <h2 className="text-lg font-semibold">Recent imports</h2>
      <ListTable
        {...states}
        empty="No imports yet."
        label="Recent imports"
        columns={columns}
        rowKey={(r) => r.id}
        rowTestId="import-row"
      />
    </div>
  );
}
