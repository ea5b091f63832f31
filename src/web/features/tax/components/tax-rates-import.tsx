import { useState } from "react";
import { taxRateCsvColumns } from "#contract/tax";
import { FormError } from "../../../components/form-field";
import { notify } from "../../../lib/notify";
import { useImportTaxRates } from "../api/tax-rates";

/**
 * Admin: tax rates from a CSV file (docs/tax.md), added or replaced by place; a file with any
 * bad row changes nothing and the message names each line.
 */
export function TaxRatesImport() {
  const importRates = useImportTaxRates();
  const [file, setFile] = useState<File>();
  return (
    <form
      noValidate
      aria-label="Import tax rates"
      className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!file) return;
        void file.text().then((csv) =>
          importRates.mutate(csv, {
            onSuccess: (r) =>
              notify.success(`Imported tax rates: ${r.added} added, ${r.updated} replaced`),
          }),
        );
      }}
    >
      <label htmlFor="tax-csv" className="font-semibold">
        Import a CSV
      </label>
      <p className="text-sm text-base-content/75">
        Columns: {taxRateCsvColumns.join(", ")}. A row replaces the rate of its place.
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          id="tax-csv"
          type="file"
          accept=".csv,text/csv"
          className="file-input file-input-sm max-w-full"
          onChange={(e) => {
            importRates.reset();
            setFile(e.target.files?.[0]);
          }}
        />
        <button
          type="submit"
          className="btn btn-sm btn-primary"
          disabled={!file || importRates.isPending}
        >
          Import rates
        </button>
      </div>
      <FormError message={importRates.error?.message} className="text-sm text-error" />
    </form>
  );
}
