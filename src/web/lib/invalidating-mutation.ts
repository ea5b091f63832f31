import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

/**
 * A write whose success makes the cached reads under `queryKey` stale (refetched where they are
 * shown): a resource's lists and records after one of them is added, changed or removed. The
 * mutation settles once they are marked.
 */
export function useInvalidatingMutation<I, O>(queryKey: QueryKey, fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
