import { useQuery } from "@tanstack/react-query";
import type { TaxRate, TaxRateDraft, TaxRateImportResult } from "#contract/tax";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

export const useTaxRates = () =>
  useQuery({ queryKey: queryKeys.taxRates, queryFn: () => apiGet<TaxRate[]>("/tax-rates") });

/** Adds a rate (no id) or changes one. */
export function useSaveTaxRate() {
  return useInvalidatingMutation(
    queryKeys.taxRates,
    ({ id, rate }: { id?: string; rate: TaxRateDraft }) =>
      id
        ? apiSend<TaxRate>("PUT", `/tax-rates/${encodeURIComponent(id)}`, rate)
        : apiSend<TaxRate>("POST", "/tax-rates", rate),
  );
}

/** Adds or replaces the rates of a CSV file's text (all or nothing). */
export function useImportTaxRates() {
  return useInvalidatingMutation(queryKeys.taxRates, (csv: string) =>
    apiSend<TaxRateImportResult>("POST", "/tax-rates/import", { csv }),
  );
}

export function useRemoveTaxRate() {
  return useInvalidatingMutation(queryKeys.taxRates, (id: string) =>
    apiSend<void>("DELETE", `/tax-rates/${encodeURIComponent(id)}`),
  );
}
