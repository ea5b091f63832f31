import { pluralCount } from "#contract/count";
import { useState, type ReactNode } from "react";
import { ApiError } from "../lib/api-client";

/** What the server's check of a CSV file answers: its rows and every problem with its line. */
interface CsvCheckAnswer {
  rows: number;
  errors: { line: number; column?: string; message: string }[];
}

/**
 * A CSV file chosen, then checked by the server before anything is imported: the file, the
 * check's answer, the problem to show (a file over `maxBytes`, or the server's refusal) and
 * whether a step runs. `onFresh` clears what the page showed of the last import, when another
 * file is chosen or checked.
 */
export function useCsvCheck<P extends CsvCheckAnswer>(options: {
  maxBytes: number;
  check: (file: File) => Promise<P>;
  onFresh: () => void;
}) {
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<P>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  /** Runs a step with the buttons off; its refusal is the problem shown. */
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await step();
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : "Could not reach the server; try again");
    } finally {
      setBusy(false);
    }
  };

  const choose = (next?: File) => {
    setFile(next);
    setPreview(undefined);
    setProblem(undefined);
    options.onFresh();
  };

  const check = () =>
    run(async () => {
      if (!file) return;
      options.onFresh();
      if (file.size > options.maxBytes) {
        setProblem(`The file must be ${options.maxBytes / 1024 / 1024} MiB or smaller`);
        return;
      }
      setPreview(await options.check(file));
    });

  const ready = preview !== undefined && preview.errors.length === 0 && preview.rows > 0;
  return { file, preview, setPreview, problem, setProblem, busy, run, choose, check, ready };
}

export type CsvCheck<P extends CsvCheckAnswer> = ReturnType<typeof useCsvCheck<P>>;

interface CsvCheckPanelProps<P extends CsvCheckAnswer> {
  csv: CsvCheck<P>;
  /** The heading's id, and the start of the test ids: `<testId>-preview`, `<testId>-error`. */
  headingId: string;
  testId: string;
  exportHref: string;
  exportLabel: string;
  /** What the file holds (its columns). */
  children: ReactNode;
  fileLabel: string;
  checkLabel: string;
  errorsLabel: string;
  /** What the rows would do: "2 new products, 0 updates". */
  changes: (preview: P) => string;
  /** The import button while the checked file is ready and `canImport` (default: yes). */
  importLabel: (preview: P) => string;
  canImport?: boolean;
  busy?: boolean;
  onImport: () => void;
  /** What the last import did. */
  outcome?: ReactNode;
}

/**
 * The CSV card of an admin page: the export link, a file chosen and checked (every row's problem
 * with its line), then the import of a file without problems.
 */
export function CsvCheckPanel<P extends CsvCheckAnswer>({
  csv,
  headingId,
  testId,
  exportHref,
  exportLabel,
  children,
  fileLabel,
  checkLabel,
  errorsLabel,
  changes,
  importLabel,
  canImport = true,
  busy = csv.busy,
  onImport,
  outcome,
}: CsvCheckPanelProps<P>) {
  const { preview } = csv;
  return (
    <section className="card border border-base-300 bg-base-100" aria-labelledby={headingId}>
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={headingId} className="card-title text-lg">
            Import and export (CSV)
          </h2>
          <a className="btn btn-sm btn-outline" href={exportHref} download>
            {exportLabel}
          </a>
        </div>
        {children}
        <div className="flex flex-wrap items-end gap-2">
          <label className="form-control">
            <span className="label-text">{fileLabel}</span>
            <input
              type="file"
              accept=".csv,text/csv"
              className="file-input file-input-bordered file-input-sm max-w-full"
              onChange={(e) => csv.choose(e.target.files?.[0])}
            />
          </label>
          <button
            type="button"
            className="btn btn-sm"
            disabled={!csv.file || busy}
            onClick={() => void csv.check()}
          >
            {checkLabel}
          </button>
        </div>
        {csv.problem && (
          <p role="alert" className="text-error">
            {csv.problem}
          </p>
        )}
        {preview && (
          <div className="flex flex-col gap-2" data-testid={`${testId}-preview`}>
            <p>
              {pluralCount(preview.rows, "row")}: {changes(preview)}
              {preview.errors.length > 0 &&
                ` — ${pluralCount(preview.errors.length, "error")}; nothing was imported`}
            </p>
            {preview.errors.length > 0 && (
              <div className="overflow-x-auto">
                <table className="table table-sm" aria-label={errorsLabel}>
                  <thead>
                    <tr>
                      <th>Line</th>
                      <th>Column</th>
                      <th>Problem</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.errors.map((e, i) => (
                      <tr key={i} data-testid={`${testId}-error`}>
                        <td>{e.line}</td>
                        <td>{e.column ?? ""}</td>
                        <td>{e.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {csv.ready && canImport && (
              <button
                type="button"
                className="btn btn-primary btn-sm self-start"
                disabled={busy}
                onClick={onImport}
              >
                {importLabel(preview)}
              </button>
            )}
          </div>
        )}
        {outcome}
      </div>
    </section>
  );
}
