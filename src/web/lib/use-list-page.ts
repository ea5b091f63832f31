import { keepPreviousData, useQuery, type QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { apiGetPage, toQueryString } from "./api-client";
import { pageParam, useStayWithinPages, useUrlParams } from "./use-url-params";

/**
 * A list page's state, all of it in its URL so that a link or Back shows the same list: the
 * search (`q`), the page (`page`, from 1) and the page's own filters. `query` is what the list
 * APIs take (`limit`, `offset`, `q` when there is one); `paging` the same without the search, for
 * a list that has none. A new search or filter starts again from the first page.
 */
export function useListPage(pageSize: number) {
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params, pageSize);
  const paging = { limit: pageSize, offset: (page - 1) * pageSize };
  const refine = (changes: Record<string, string | undefined>) =>
    update({ ...changes, page: undefined });
  return {
    params,
    update,
    pageSize,
    q,
    page,
    paging,
    query: { ...paging, q: q || undefined },
    search: (text: string) => refine({ q: text }),
    refine,
    /** A filter's value in the URL: one of `values`, else undefined (absent, or not one of them). */
    choice: <T extends string>(name: string, values: readonly T[]): T | undefined => {
      const value = params.get(name);
      return values.find((v) => v === value);
    },
  };
}

/** What a list query answers (TanStack Query's result): a page of items, and how many in all. */
interface ListAnswer<Row> {
  data?: { items: Row[]; total: number };
  error: Error | null;
  isPending: boolean;
  isPlaceholderData: boolean;
}

/**
 * The read of a page of a list: `path` with `query` (its limit, offset and filters) as search
 * parameters, cached under `queryKey`; the page shown stays while the next one loads.
 */
export const usePageRead = <Row>(
  queryKey: QueryKey,
  path: string,
  query: Parameters<typeof toQueryString>[0],
) =>
  useQuery({
    queryKey,
    queryFn: () => apiGetPage<Row>(`${path}${toQueryString(query)}`),
    placeholderData: keepPreviousData,
  });

/**
 * ListStates' loading, error, empty and paging props for the list's answer, with the page's
 * `rows` and, given `summary`, the line above them (`summary(total)`, once there is an answer)
 * for a ListTable. Removing the last item of the last page goes to the new last page rather than
 * showing an empty one.
 */
export function useListStates<Row>(
  list: ReturnType<typeof useListPage>,
  answer: ListAnswer<Row>,
  summary?: (total: number) => ReactNode,
) {
  const { data, error, isPending, isPlaceholderData } = answer;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / list.pageSize)) : 1;
  useStayWithinPages(list.page, data && !isPlaceholderData ? pageCount : undefined, list.update);
  return {
    isPending,
    error,
    count: data?.items.length,
    rows: data?.items ?? [],
    summary: data && summary?.(data.total),
    stale: isPlaceholderData,
    page: list.page,
    pageCount,
    onPage: (p: number) => list.update({ page: p === 1 ? undefined : String(p) }),
  };
}

/** ListStates' loading and error, and the rows, of a list read whole (no search, no pages). */
export const wholeListStates = <Row>(answer: {
  data?: Row[];
  error: Error | null;
  isPending: boolean;
}) => ({ isPending: answer.isPending, error: answer.error, rows: answer.data ?? [] });
