import { useId, useState } from "react";
import { pluralCount } from "#contract/count";
import { SUPPLY_CSV_COLUMNS, type SupplyImport } from "#contract/supply";
import { notify } from "../../../lib/notify";
import { useImportSupply } from "../api/supply";

/**
 * Admin: many runs and POs at once, from a CSV (docs/inventory.md "The supply CSV"); a file with
 * any problem enters nothing and lists each with its line.
 */
export function SupplyImportForm() {
  const id = useId();
  const upload = useImportSupply();
  const [file, setFile] = useState<File>();
  const [answer, setAnswer] = useState<SupplyImport>();
  return (
    <section className="card border border-base-300 bg-base-100" aria-labelledby={`${id}-title`}>
      <form
        className="card-body gap-3"
        aria-label="Import incoming supply"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!file) return;
          try {
            const result = await upload.mutateAsync(file);
            setAnswer(result);
            if (result.applied) notify.success(`${pluralCount(result.rows, "supply line")} added`);
          } catch (err) {
            notify.error((err as Error).message);
          }
        }}
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
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor={id} className="text-sm font-medium">
              CSV file
            </label>
            <input
              id={id}
              type="file"
              accept=".csv,text/csv"
              className="file-input file-input-bordered w-full max-w-xs"
              onChange={(e) => {
                setFile(e.target.files?.[0]);
                setAnswer(undefined);
              }}
            />
          </div>
          <button type="submit" className="btn btn-primary" disabled={!file || upload.isPending}>
            Import
          </button>
        </div>
        {answer && !answer.applied && (
          <div role="alert" className="text-sm text-error">
            <p>
              Nothing was entered: the file has{" "}
              {answer.errors.length === 1 ? "a problem" : "problems"}.
            </p>
            <ul className="list-disc pl-5">
              {answer.errors.map((e, i) => (
                <li key={i}>
                  Line {e.line}
                  {e.column && ` (${e.column})`}: {e.message}
                </li>
              ))}
            </ul>
          </div>
        )}
      </form>
    </section>
  );
}
