import { useCallback } from "react";
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
