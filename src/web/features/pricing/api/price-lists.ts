import { useQuery } from "@tanstack/react-query";
import type {
  PriceList,
  PriceListCreate,
  PriceListEntry,
  PriceListEntryInput,
} from "#contract/pricing";
import { normalizePartNumber } from "#contract/constants";
import { apiGet, apiSend, toQueryString } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

const keys = {
  all: ["price-lists"] as const,
  list: (q: object) => ["price-lists", "list", q] as const,
  detail: (id: string) => ["price-lists", "detail", id] as const,
  entries: (id: string, q: object) => ["price-lists", "entries", id, q] as const,
};

export interface PageQuery {
  limit: number;
  offset: number;
  q?: string;
}

export function usePriceLists(query: PageQuery) {
  return usePageRead<PriceList>(keys.list(query), "/price-lists", { ...query });
}

export function usePriceList(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: () => apiGet<PriceList>(`/price-lists/${encodeURIComponent(id)}`),
  });
}

export function usePriceListEntries(id: string, query: PageQuery) {
  return usePageRead<PriceListEntry>(
    keys.entries(id, query),
    `/price-lists/${encodeURIComponent(id)}/entries`,
    { ...query },
  );
}

const useInvalidating = <I, O>(fn: (input: I) => Promise<O>) =>
  useInvalidatingMutation(keys.all, fn);

export const useCreatePriceList = () =>
  useInvalidating((body: PriceListCreate) => apiSend<PriceList>("POST", "/price-lists", body));

export const useDeletePriceList = () =>
  useInvalidating((id: string) =>
    apiSend<void>("DELETE", `/price-lists/${encodeURIComponent(id)}`),
  );

export const useSetEntry = (listId: string) =>
  useInvalidating((input: { productId: string; entry: PriceListEntryInput }) =>
    apiSend<PriceListEntry>(
      "PUT",
      `/price-lists/${encodeURIComponent(listId)}/entries/${encodeURIComponent(input.productId)}`,
      input.entry,
    ),
  );

export const useRemoveEntry = (listId: string) =>
  useInvalidating((productId: string) =>
    apiSend<void>(
      "DELETE",
      `/price-lists/${encodeURIComponent(listId)}/entries/${encodeURIComponent(productId)}`,
    ),
  );

export const useImportEntries = (listId: string) =>
  useInvalidating((body: { csv: string; replace: boolean }) =>
    apiSend<{ imported: number; removed: number }>(
      "POST",
      `/price-lists/${encodeURIComponent(listId)}/entries/import`,
      body,
    ),
  );

/** The product with this part number (the catalog's number search), or undefined. */
export async function findProductByPartNumber(
  partNumber: string,
): Promise<{ _id: string; name: string; partNumber: string } | undefined> {
  const found = await apiGet<{ _id: string; name: string; partNumber: string }[]>(
    `/products${toQueryString({ q: partNumber, limit: 5 })}`,
  );
  return found.find((p) => normalizePartNumber(p.partNumber) === normalizePartNumber(partNumber));
}
