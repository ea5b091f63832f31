import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { MAX_CSV_BYTES, type CsvPreview } from "#contract/product-csv";
import { ApiError } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import {
  PRODUCT_EXPORT_URL,
  previewProductCsv,
  startProductImport,
  useImportJob,
} from "../api/product-csv";

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/**
 * CSV import and export of the catalogue (admins): choose a file, check it (every row's problem
 * with its line), then import it in one go while a progress bar follows the job.
 */
export function ProductCsvPanel() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<CsvPreview>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [jobId, setJobId] = useState<string>();
  const job = useImportJob(jobId).data;

  useEffect(() => {
    if (job?.status === "done")
      void queryClient.invalidateQueries({ queryKey: queryKeys.products.all });
  }, [job?.status, queryClient]);

  const reset = (next?: File) => {
    setFile(next);
    setPreview(undefined);
    setProblem(undefined);
    setJobId(undefined);
  };

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

  const check = () =>
    run(async () => {
      if (!file) return;
      if (file.size > MAX_CSV_BYTES) {
        setProblem(`The file must be ${MAX_CSV_BYTES / 1024 / 1024} MiB or smaller`);
        return;
      }
      setJobId(undefined);
      setPreview(await previewProductCsv(file));
    });

  const importFile = () =>
    run(async () => {
      if (!file) return;
      setJobId((await startProductImport(file)).id);
    });

  const ready = preview && preview.errors.length === 0 && preview.rows > 0;

  return (
    <section className="card border border-base-300 bg-base-100" aria-labelledby="csv-heading">
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="csv-heading" className="card-title text-lg">
            Import and export (CSV)
          </h2>
          <a className="btn btn-sm btn-outline" href={PRODUCT_EXPORT_URL} download>
            Export all products (CSV)
          </a>
        </div>
        <p className="text-sm">
          Columns: part_number, name, description, category, price, stock, minimum_order,
          warranty_months, image_url, cross_references (e.g.{" "}
          <code>OE:Toyota:04465-02220|COMP:Bosch:0 986 494 055</code>), and optionally weight_grams,
          length_mm, width_mm and height_mm (the three together; empty cells: none), and fitment
          (e.g. <code>2014-2018;Skoda;Octavia;1.4 TSI;Front;2|2016;Volkswagen;Golf</code>: years;
          make; model; then engine, position, quantity and note if needed). A row whose part number
          exists updates that product; a fitment cell replaces that product&apos;s fitment.
        </p>
        <div className="flex flex-wrap items-end gap-2">
          <label className="form-control">
            <span className="label-text">CSV file</span>
            <input
              type="file"
              accept=".csv,text/csv"
              className="file-input file-input-bordered file-input-sm"
              onChange={(e) => reset(e.target.files?.[0])}
            />
          </label>
          <button type="button" className="btn btn-sm" disabled={!file || busy} onClick={check}>
            Check file
          </button>
        </div>
        {problem && (
          <p role="alert" className="text-error">
            {problem}
          </p>
        )}
        {preview && (
          <div className="flex flex-col gap-2" data-testid="csv-preview">
            <p>
              {plural(preview.rows, "row", "rows")}:{" "}
              {plural(preview.creates, "new product", "new products")},{" "}
              {plural(preview.updates, "update", "updates")}
              {preview.errors.length > 0 &&
                ` — ${plural(preview.errors.length, "error", "errors")}; nothing was imported`}
            </p>
            {preview.errors.length > 0 && (
              <div className="overflow-x-auto">
                <table className="table table-sm" aria-label="Problems in the file">
                  <thead>
                    <tr>
                      <th>Line</th>
                      <th>Column</th>
                      <th>Problem</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.errors.map((e, i) => (
                      <tr key={i} data-testid="csv-error">
                        <td>{e.line}</td>
                        <td>{e.column ?? ""}</td>
                        <td>{e.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {ready && !jobId && (
              <button
                type="button"
                className="btn btn-primary btn-sm self-start"
                disabled={busy}
                onClick={importFile}
              >
                Import {plural(preview.rows, "product", "products")}
              </button>
            )}
          </div>
        )}
        {job && (
          <div className="flex flex-col gap-1" aria-live="polite">
            <progress
              className="progress progress-primary w-full"
              value={job.done}
              max={Math.max(job.total, 1)}
              aria-label="Import progress"
            />
            <p data-testid="csv-import-status">
              {job.status === "running" &&
                `Importing… ${job.done.toLocaleString("en")} of ${job.total.toLocaleString("en")}`}
              {job.status === "done" &&
                `Imported: ${plural(job.creates, "new product", "new products")}, ${plural(job.updates, "update", "updates")}`}
              {job.status === "failed" && job.error}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
