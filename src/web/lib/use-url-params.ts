import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { useLocation, useNavigate, type NavigateOptions } from "react-router";
import { MAX_OFFSET } from "#contract/constants";

/**
 * A list page's state kept in its URL query (search, sort, page): the parameters, and `update`,
 * which changes some of them and keeps the rest (an empty value removes the parameter; a list
 * repeats it, `?attr=a&attr=b`).
 * Each `update` starts from the query the last one asked for while the location has not caught
 * up yet, so two changes in a row (clear the search, then sort) both stay; an `update` kept
 * from an earlier render (a debounced search) starts from the URL as it is now.
 * (React Router's useSearchParams does the same with more options; built on useLocation and
 * useNavigate, its code stays off the pages that list nothing.)
 */
export function useUrlParams() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  /** The location's query as last rendered, and the query an `update` asked for since then. */
  const shown = useRef({ search, asked: null as { from: string; to: string } | null });
  useLayoutEffect(() => {
    shown.current = { search, asked: null };
  }, [search]);
  const update = useCallback(
    (
      changes: Record<string, string | readonly string[] | undefined>,
      options?: NavigateOptions,
    ) => {
      const { search: now, asked } = shown.current;
      const next = new URLSearchParams(asked?.from === now ? asked.to : now);
      for (const [key, value] of Object.entries(changes)) {
        if (Array.isArray(value)) {
          next.delete(key);
          for (const v of value as readonly string[]) next.append(key, v);
        } else if (value) next.set(key, value as string);
        else next.delete(key);
      }
      const to = `?${next.toString()}`;
      shown.current.asked = { from: now, to };
      void navigate(to, options);
    },
    [navigate],
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
