import { useQuery } from "@tanstack/react-query";
import { CSV_FIELD, type CsvPreview, type ImportJob } from "#contract/product-csv";
import { apiGet, apiUpload } from "../../../lib/api-client";

/** Where the admin downloads the whole catalogue as CSV. */
export const PRODUCT_EXPORT_URL = "/api/admin/products/export.csv";

/** Checks a file; nothing is written. */
export const previewProductCsv = (file: File) =>
  apiUpload<CsvPreview>("/admin/product-imports/preview", CSV_FIELD, file);

/** Starts the import of a file without errors; answers the job to poll. */
export const startProductImport = (file: File) =>
  apiUpload<ImportJob>("/admin/product-imports", CSV_FIELD, file);

/** An import's progress, asked again every half second while it runs. */
export function useImportJob(id: string | undefined) {
  return useQuery({
    queryKey: ["product-imports", id],
    queryFn: () => apiGet<ImportJob>(`/admin/product-imports/${id}`),
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 500 : false),
  });
}
