import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListAdded, ListSummary, SavedList } from "#contract/lists";
import type { QuickOrderResult } from "#contract/quick-order";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation, useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

const at = (id: string) => `/lists/${encodeURIComponent(id)}`;

export const useMyLists = () =>
  useQuery({ queryKey: queryKeys.lists.all, queryFn: () => apiGet<ListSummary[]>("/lists") });

export const useList = (id: string) =>
  useQuery({ queryKey: queryKeys.lists.detail(id), queryFn: () => apiGet<SavedList>(at(id)) });

/** Every change of a list answers the list: it is put in the cache, and the index refreshed. */
function useListChange<Input>(send: (input: Input) => Promise<SavedList>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (list) => {
      queryClient.setQueryData(queryKeys.lists.detail(list.id), list);
      return queryClient.invalidateQueries({ queryKey: queryKeys.lists.all, exact: true });
    },
  });
}

export const useCreateList = () =>
  useListChange((input: { name: string; items?: { productId: string; qty: number }[] }) =>
    apiSend<SavedList>("POST", "/lists", input),
  );

export const useRenameList = (id: string) =>
  useListChange((name: string) => apiSend<SavedList>("PATCH", at(id), { name }));

export const useSetListItem = (id: string) =>
  useListChange(({ productId, qty }: { productId: string; qty: number }) =>
    apiSend<SavedList>("PUT", `${at(id)}/items/${encodeURIComponent(productId)}`, { qty }),
  );

export const useRemoveListItem = (id: string) =>
  useListChange((productId: string) =>
    apiSend<SavedList>("DELETE", `${at(id)}/items/${encodeURIComponent(productId)}`),
  );

export function useDeleteList() {
  return useInvalidatingMutation(queryKeys.lists.all, (id: string) =>
    apiSend<void>("DELETE", at(id)),
  );
}

export function useAddListToCart(id: string) {
  return useReplacingMutation(
    queryKeys.cart.mine,
    () => apiSend<ListAdded>("POST", `${at(id)}/add-to-cart`),
    (added) => added.cart,
  );
}

/** Finds the part a number (any kind, any spelling) names, through quick order's resolution. */
export async function findPart(number: string) {
  const result = await apiSend<QuickOrderResult>("POST", "/quick-order/resolve", {
    lines: [{ number, qty: 1 }],
  });
  const line = result.lines[0];
  return { product: line?.product ?? null, problem: line?.problems.find((p) => p.blocking) };
}
