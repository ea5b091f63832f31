import { useCallback, useEffect } from "react";
import { useSearchParams, type NavigateOptions } from "react-router";

/**
 * A list page's state kept in its URL query (search, sort, page): the parameters, and `update`,
 * which changes some of them and keeps the rest (an empty value removes the parameter).
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | undefined>, options?: NavigateOptions) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      }, options),
    [setParams],
  );
  return [params, update] as const;
}

/** The list page the URL asks for (`page`, counted from 1). */
export const pageParam = (params: URLSearchParams) =>
  Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);

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
