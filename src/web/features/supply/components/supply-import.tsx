import { useId } from "react";
import { pluralCount } from "#contract/count";
import { SUPPLY_CSV_COLUMNS } from "#contract/supply";
import { CsvUploadForm } from "../../../components/csv-upload-form";
import { useImportSupply } from "../api/supply";

/**
 * Admin: many runs and POs at once, from a CSV (docs/inventory.md "The supply CSV"); a file with
 * any problem enters nothing and lists each with its line.
 */
export function SupplyImportForm() {
  const id = useId();
  const upload = useImportSupply();
  return (
    <section className="card border border-base-300 bg-base-100" aria-labelledby={`${id}-title`}>
      <CsvUploadForm
        className="card-body gap-3"
        label="Import incoming supply"
        buttonLabel="Import"
        nothingWas="entered"
        upload={(file) => upload.mutateAsync(file)}
        pending={upload.isPending}
        applied={(result) => `${pluralCount(result.rows, "supply line")} added`}
      >
        <h2 id={`${id}-title`} className="card-title text-lg">
          Import supply (CSV)
        </h2>
        <p className="text-sm text-base-content/80">
          A CSV with the columns <code className="break-all">{SUPPLY_CSV_COLUMNS.join(",")}</code>{" "}
          (and optionally <code>note</code>), e.g.{" "}
          <code className="break-all">production,RUN-2027-014,04465-02220,MAIN,400,2027-01-12</code>
          . The kind is <code>production</code> or <code>purchase_order</code>. A file with any
          problem enters nothing.
        </p>
      </CsvUploadForm>
    </section>
  );
}
