import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { importWords, type ImportError, type ImportRecord } from "#contract/imports";
import { useConfirm } from "../../../components/confirm-dialog";
import { DataTable, type Column } from "../../../components/data-table";
import { FormError } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatCount } from "../../../lib/format";
import { queryKeys } from "../../../lib/query-keys";
import { useImport, useStartImport } from "../api/imports";

/** The problems' columns: an ACES application's id, or a PIES item's part number. */
const errorColumns = (pies: boolean): Column<ImportError>[] => [
  {
    header: pies ? "Part number" : "App id",
    role: "title",
    cell: (e) => <code>{e.appId || "—"}</code>,
  },
  { header: "Line", numeric: true, cell: (e) => formatCount(e.line) },
  { header: "Problem", cell: (e) => e.message },
];

/** What the record says, in the words of its kind of file. */
function wordsOf(record: ImportRecord) {
  const { counts, pies } = record;
  if (pies) {
    return {
      contents: importWords.piesContents(pies),
      changes: importWords.piesChanges(pies),
      problems: importWords.piesErrors(counts.errorCount),
      problemsLabel: "Items with problems",
      progress: importWords.piesProgress(record.progress.done, record.progress.total),
      done: importWords.piesDone(pies),
      confirm: importWords.piesConfirmBody(record.brand, pies),
      removes: false,
    };
  }
  return {
    contents: importWords.contents(counts),
    changes: importWords.changes(counts),
    problems: importWords.errors(counts.errorCount),
    problemsLabel: "Applications with problems",
    progress: importWords.progress(record.progress.done, record.progress.total),
    done: record.result ? importWords.done(record.result) : "",
    confirm: importWords.confirmBody(record.brand, counts),
    removes: counts.rowsToRemove > 0,
  };
}

/** One import: what the file holds, its problems, the Import button, then progress and result. */
export function ImportRecordPanel({ id }: { id: string }) {
  const answer = useImport(id);
  const record = answer.data;
  const queryClient = useQueryClient();
  const done = record?.status === "done";
  useEffect(() => {
    // The shop's cached products and their fitment are read afresh.
    if (done) void queryClient.invalidateQueries({ queryKey: queryKeys.products.all });
  }, [done, queryClient]);
  if (answer.isPending) return <PageSpinner />;
  if (answer.error) return <QueryError error={answer.error} />;
  return <RecordView record={record!} />;
}

function RecordView({ record }: { record: ImportRecord }) {
  const start = useStartImport();
  const [confirm, dialog] = useConfirm();
  const { counts } = record;
  const words = wordsOf(record);
  const importFile = async () => {
    const yes = await confirm({
      title: importWords.confirmTitle,
      body: words.confirm,
      confirmLabel: "Import",
      tone: words.removes ? "danger" : "positive",
    });
    if (yes) start.mutate(record.id);
  };
  return (
    <section
      aria-labelledby="import-heading"
      className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4"
      data-testid="import-record"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="import-heading" className="text-lg font-semibold break-all">
          {record.fileName}
        </h2>
        <span className="badge badge-outline" data-testid="import-status">
          {importWords.status[record.status]}
        </span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-base-content/75">Kind</dt>
        <dd>{importWords.kinds[record.kind]}</dd>
        <dt className="text-base-content/75">Brand</dt>
        <dd>{record.brand}</dd>
        <dt className="text-base-content/75">File</dt>
        <dd data-testid="import-contents">{words.contents}</dd>
        <dt className="text-base-content/75">Changes</dt>
        <dd data-testid="import-changes">{words.changes}</dd>
        <dt className="text-base-content/75">Problems</dt>
        <dd data-testid="import-problems">{words.problems}</dd>
      </dl>
      {record.errors.length > 0 && (
        <div className="flex flex-col gap-1">
          {counts.errorCount > record.errors.length && (
            <p className="text-sm text-base-content/75">
              {importWords.errorsCut(record.errors.length, counts.errorCount)}
            </p>
          )}
          <DataTable
            label={words.problemsLabel}
            columns={errorColumns(record.kind === "pies")}
            rows={record.errors}
            rowKey={(e) => `${e.line}:${e.appId}`}
            rowTestId="import-error"
          />
        </div>
      )}
      {record.status === "previewed" && (
        <button
          type="button"
          className="btn btn-primary self-start"
          disabled={start.isPending}
          onClick={() => void importFile()}
        >
          Import
        </button>
      )}
      <FormError message={start.error?.message} />
      {(record.status === "queued" || record.status === "running") && (
        <div className="flex flex-col gap-1" aria-live="polite">
          <progress
            className="progress progress-primary w-full"
            value={record.progress.done}
            max={Math.max(record.progress.total, 1)}
            aria-label="Import progress"
          />
          <p data-testid="import-progress">{words.progress}</p>
        </div>
      )}
      {record.status === "done" && record.result && (
        <p className="font-medium text-success" role="status" data-testid="import-result">
          {words.done}
        </p>
      )}
      {record.status === "failed" && record.failure && (
        <p className="text-error" role="alert" data-testid="import-result">
          {record.failure}
        </p>
      )}
      {dialog}
    </section>
  );
}
