import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TaxRate, TaxRateDraft, TaxRateImportResult } from "#contract/tax";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const useTaxRates = () =>
  useQuery({ queryKey: queryKeys.taxRates, queryFn: () => apiGet<TaxRate[]>("/tax-rates") });

/** Adds a rate (no id) or changes one. */
export function useSaveTaxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, rate }: { id?: string; rate: TaxRateDraft }) =>
      id
        ? apiSend<TaxRate>("PUT", `/tax-rates/${encodeURIComponent(id)}`, rate)
        : apiSend<TaxRate>("POST", "/tax-rates", rate),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.taxRates }),
  });
}

/** Adds or replaces the rates of a CSV file's text (all or nothing). */
export function useImportTaxRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) => apiSend<TaxRateImportResult>("POST", "/tax-rates/import", { csv }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.taxRates }),
  });
}

export function useRemoveTaxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>("DELETE", `/tax-rates/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.taxRates }),
  });
}
