import { formatCount, pluralCount } from "#contract/count";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { MAX_CSV_BYTES } from "#contract/product-csv";
import { CsvCheckPanel, useCsvCheck } from "../../../components/csv-check-panel";
import { queryKeys } from "../../../lib/query-keys";
import {
  PRODUCT_EXPORT_URL,
  previewProductCsv,
  startProductImport,
  useImportJob,
} from "../api/product-csv";

/**
 * CSV import and export of the catalogue (admins): choose a file, check it (every row's problem
 * with its line), then import it in one go while a progress bar follows the job.
 */
export function ProductCsvPanel() {
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<string>();
  const csv = useCsvCheck({
    maxBytes: MAX_CSV_BYTES,
    check: previewProductCsv,
    onFresh: () => setJobId(undefined),
  });
  const job = useImportJob(jobId).data;

  useEffect(() => {
    if (job?.status === "done")
      void queryClient.invalidateQueries({ queryKey: queryKeys.products.all });
  }, [job?.status, queryClient]);

  const importFile = () =>
    csv.run(async () => {
      if (!csv.file) return;
      setJobId((await startProductImport(csv.file)).id);
    });

  return (
    <CsvCheckPanel
      csv={csv}
      headingId="csv-heading"
      testId="csv"
      exportHref={PRODUCT_EXPORT_URL}
      exportLabel="Export all products (CSV)"
      fileLabel="CSV file"
      checkLabel="Check file"
      errorsLabel="Problems in the file"
      changes={(p) =>
        `${pluralCount(p.creates, "new product")}, ${pluralCount(p.updates, "update")}`
      }
      importLabel={(p) => `Import ${pluralCount(p.rows, "product")}`}
      canImport={!jobId}
      onImport={() => void importFile()}
      outcome={
        job && (
          <div className="flex flex-col gap-1" aria-live="polite">
            <progress
              className="progress progress-primary w-full"
              value={job.done}
              max={Math.max(job.total, 1)}
              aria-label="Import progress"
            />
            <p data-testid="csv-import-status">
              {job.status === "running" &&
                `Importing… ${formatCount(job.done)} of ${formatCount(job.total)}`}
              {job.status === "done" &&
                `Imported: ${pluralCount(job.creates, "new product")}, ${pluralCount(job.updates, "update")}`}
              {job.status === "failed" && job.error}
            </p>
          </div>
        )
      }
    >
      <p className="text-sm">
        Columns: part_number, name, description, category, price, stock, minimum_order,
        warranty_months, image_url, cross_references (e.g.{" "}
        <code>OE:Toyota:04465-02220|COMP:Bosch:0 986 494 055</code>), and optionally retail_minimum
        and pack_size (empty cells: 1; the minimum order a multiple of the pack size), weight_grams,
        length_mm, width_mm and height_mm (the three together; empty cells: none), and fitment (e.g.{" "}
        <code>2014-2018;Skoda;Octavia;1.4 TSI;Front;2|2016;Volkswagen;Golf</code>: years; make;
        model; then engine, position, quantity and note if needed). A row whose part number exists
        updates that product; a fitment cell replaces that product&apos;s fitment.
      </p>
    </CsvCheckPanel>
  );
}
