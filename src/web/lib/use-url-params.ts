import { useCallback, useEffect, useMemo } from "react";
import { useLocation, useNavigate, type NavigateOptions } from "react-router";
import { MAX_OFFSET } from "#contract/constants";

/**
 * A list page's state kept in its URL query (search, sort, page): the parameters, and `update`,
 * which changes some of them and keeps the rest (an empty value removes the parameter; a list
 * repeats it, `?attr=a&attr=b`).
 * (React Router's useSearchParams does the same with more options; built on useLocation and
 * useNavigate, its code stays off the pages that list nothing.)
 */
export function useUrlParams() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const update = useCallback(
    (
      changes: Record<string, string | readonly string[] | undefined>,
      options?: NavigateOptions,
    ) => {
      const next = new URLSearchParams(params);
      for (const [key, value] of Object.entries(changes)) {
        if (Array.isArray(value)) {
          next.delete(key);
          for (const v of value as readonly string[]) next.append(key, v);
        } else if (value) next.set(key, value as string);
        else next.delete(key);
      }
      void navigate(`?${next.toString()}`, options);
    },
    [params, navigate],
  );
  return [params, update] as const;
}

/**
 * The list page the URL asks for (`page`, counted from 1), no deeper than the API pages
 * (MAX_OFFSET): a hand-typed `?page=999` shows the last page there is, not an error.
 */
export const pageParam = (params: URLSearchParams, pageSize: number) =>
  Math.min(
    Math.floor(MAX_OFFSET / pageSize) + 1,
    Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1),
  );

/**
 * Removing the last item of the last page would leave an empty page: go to the new last page
 * instead, in place of the current history entry. `pageCount` is undefined while not known.
 */
export function useStayWithinPages(
  page: number,
  pageCount: number | undefined,
  update: ReturnType<typeof useUrlParams>[1],
) {
  const pastTheEnd = pageCount !== undefined && page > pageCount;
  useEffect(() => {
    if (pastTheEnd && pageCount !== undefined) {
      update({ page: pageCount > 1 ? String(pageCount) : undefined }, { replace: true });
    }
  }, [pastTheEnd, pageCount, update]);
}
