import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

/**
 * A write whose success makes the cached reads under `queryKey` stale (refetched where they are
 * shown): a resource's lists and records after one of them is added, changed or removed. The
 * mutation settles once they are marked. `alsoOnError`: after a failure too, for a write
 * decided on what the page shows, whose refusal (the order shipped meanwhile, the invoice paid)
 * most often means that is out of date.
 */
export function useInvalidatingMutation<I, O>(
  queryKey: QueryKey,
  fn: (input: I) => Promise<O>,
  { alsoOnError = false }: { alsoOnError?: boolean } = {},
) {
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey });
  return useMutation({
    mutationFn: fn,
    ...(alsoOnError ? { onSettled: invalidate } : { onSuccess: invalidate }),
  });
}
