import { CSV_FIELD } from "#contract/product-csv";
import { LOT_CSV_COLUMNS, type LotImport } from "#contract/shipments";
import { apiUpload } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { CsvUploadForm } from "../../../components/csv-upload-form";

/** Admin: sets the lots of lines already shipped from a CSV (all or nothing). */
function useImportLots() {
  // Shipments and claims show the lots: refresh everything about orders.
  return useInvalidatingMutation(["orders"], (file: File) =>
    apiUpload<LotImport>("/shipments/lots", CSV_FIELD, file),
  );
}

/**
 * Admin: production lots of lines already shipped, from a CSV with the columns order, line and lot
 * (docs/warranty.md "Lots"); a file with any problem sets nothing and lists each with its line.
 */
export function LotImportForm() {
  const upload = useImportLots();
  return (
    <CsvUploadForm
      label="Import production lots"
      buttonLabel="Set the lots"
      nothingWas="set"
      upload={(file) => upload.mutateAsync(file)}
      pending={upload.isPending}
      applied={(result) => `Lots set on ${result.rows} shipped lines`}
    >
      <p className="text-sm text-base-content/80">
        A CSV with the columns <code>{LOT_CSV_COLUMNS.join(",")}</code>, e.g.{" "}
        <code>PW-100234,1,L2407-B</code>: each row's lot on every shipment of that order line. A
        file with any problem sets nothing.
      </p>
    </CsvUploadForm>
  );
}
