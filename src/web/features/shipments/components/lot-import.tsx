import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { CSV_FIELD } from "#contract/product-csv";
import { LOT_CSV_COLUMNS, type LotImport } from "#contract/shipments";
import { apiUpload } from "../../../lib/api-client";
import { notify } from "../../../lib/notify";

/** Admin: sets the lots of lines already shipped from a CSV (all or nothing). */
function useImportLots() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(CSV_FIELD, file);
      return apiUpload<LotImport>("/shipments/lots", form);
    },
    // Shipments and claims show the lots: refresh everything about orders.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["orders"] }),
  });
}

/**
 * Admin: production lots of lines already shipped, from a CSV with the columns order, line and lot
 * (docs/warranty.md "Lots"); a file with any problem sets nothing and lists each with its line.
 */
export function LotImportForm() {
  const id = useId();
  const upload = useImportLots();
  const [file, setFile] = useState<File>();
  const [answer, setAnswer] = useState<LotImport>();
  return (
    <form
      className="flex flex-col gap-3"
      aria-label="Import production lots"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!file) return;
        try {
          const result = await upload.mutateAsync(file);
          setAnswer(result);
          if (result.applied) notify.success(`Lots set on ${result.rows} shipped lines`);
        } catch (err) {
          notify.error((err as Error).message);
        }
      }}
    >
      <p className="text-sm text-base-content/80">
        A CSV with the columns <code>{LOT_CSV_COLUMNS.join(",")}</code>, e.g.{" "}
        <code>PW-100234,1,L2407-B</code>: each row's lot on every shipment of that order line. A
        file with any problem sets nothing.
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
          Set the lots
        </button>
      </div>
      {answer && !answer.applied && (
        <div role="alert" className="text-sm text-error">
          <p>
            Nothing was set: the file has {answer.errors.length === 1 ? "a problem" : "problems"}.
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
  );
}
