import { pluralCount } from "#contract/count";
import { useState } from "react";
import {
  MAX_VEHICLE_CSV_BYTES,
  vehicleCsvColumns,
  type VehicleImportCounts,
} from "#contract/vehicles";
import { CsvCheckPanel, useCsvCheck } from "../../../components/csv-check-panel";
import { notify } from "../../../lib/notify";
import { previewVehicleCsv, useImportVehicleCsv, VEHICLE_EXPORT_URL } from "../api/vehicles";

/** "1 new make, 2 new models, 3 new years, 0 new engines, 3 engines listed for years, 0 updates". */
export const countsInWords = (c: VehicleImportCounts) =>
  [
    pluralCount(c.makes, "new make"),
    pluralCount(c.models, "new model"),
    pluralCount(c.baseVehicles, "new year"),
    pluralCount(c.engines, "new engine"),
    pluralCount(c.engineLinks, "engine listed for a year", "engines listed for years"),
    pluralCount(c.updates, "update"),
  ].join(", ");

/**
 * The vehicle table as CSV: the export, and an import checked first (every row's problem with
 * its line), then written all at once, as the product CSV is.
 */
export function VehicleCsvPanel() {
  const [imported, setImported] = useState<string>();
  const csv = useCsvCheck({
    maxBytes: MAX_VEHICLE_CSV_BYTES,
    check: previewVehicleCsv,
    onFresh: () => setImported(undefined),
  });
  const importCsv = useImportVehicleCsv();

  const importFile = () =>
    csv.file &&
    importCsv.mutate(csv.file, {
      onSuccess: (r) => {
        const words = `Imported ${pluralCount(r.rows, "row")}: ${countsInWords(r.changes)}`;
        setImported(words);
        csv.setPreview(undefined);
        notify.success("Vehicles imported");
      },
      onError: (err) => csv.setProblem(err.message),
    });

  return (
    <CsvCheckPanel
      csv={csv}
      headingId="vehicle-csv-heading"
      testId="vehicle-csv"
      exportHref={VEHICLE_EXPORT_URL}
      exportLabel="Export all vehicles (CSV)"
      fileLabel="Vehicle CSV file"
      checkLabel="Check vehicle file"
      errorsLabel="Problems in the vehicle file"
      changes={(p) => countsInWords(p.changes)}
      importLabel={(p) => `Import ${pluralCount(p.rows, "row")}`}
      busy={csv.busy || importCsv.isPending}
      onImport={importFile}
      outcome={
        imported && (
          <p aria-live="polite" data-testid="vehicle-csv-imported">
            {imported}
          </p>
        )
      }
    >
      <p className="text-sm">
        One row per year of a model and engine (engine columns empty for none). Columns:{" "}
        <code className="break-all">{vehicleCsvColumns.join(",")}</code>; year, make and model are
        required. Names are matched without regard to case; a new one is added, VCdb ids, litres and
        fuel are set where a cell gives them. Nothing is ever removed.
      </p>
    </CsvCheckPanel>
  );
}
