import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  IMPORT_FILE_FIELD,
  type ImportKind,
  type ImportListQuery,
  type ImportRecord,
} from "#contract/imports";
import { apiGet, apiSend, apiUpload } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";

/** The imports' query keys: the list and each record. */
export const importKeys = {
  all: ["imports"] as const,
  list: (query: Partial<ImportListQuery>) => ["imports", "list", query] as const,
  detail: (id: string) => ["imports", "detail", id] as const,
};

/** Uploads an ACES or PIES file: checked and counted by the server, nothing imported yet. */
export function useUploadImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) =>
      apiUpload<ImportRecord>(`/imports/${kind}`, IMPORT_FILE_FIELD, file),
    onSuccess: (record) => {
      queryClient.setQueryData(importKeys.detail(record.id), record);
      void queryClient.invalidateQueries({ queryKey: importKeys.all });
    },
  });
}

const working = (r: ImportRecord | undefined) => r?.status === "queued" || r?.status === "running";

/** One import, asked again every half second while it waits or runs. */
export function useImport(id: string | undefined) {
  return useQuery({
    queryKey: importKeys.detail(id ?? ""),
    queryFn: () => apiGet<ImportRecord>(`/imports/${id}`),
    enabled: id !== undefined,
    refetchInterval: (query) => (working(query.state.data) ? 500 : false),
  });
}

/** Recent imports, newest first, paged. */
export function useImports(query: Partial<ImportListQuery>) {
  return usePageRead<ImportRecord>(importKeys.list(query), "/imports", query);
}

/** Queues a previewed import; the record then moves on by itself. */
export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<ImportRecord>("POST", `/imports/${id}/start`),
    onSuccess: (record) => {
      queryClient.setQueryData(importKeys.detail(record.id), record);
      void queryClient.invalidateQueries({ queryKey: importKeys.all });
    },
  });
}
