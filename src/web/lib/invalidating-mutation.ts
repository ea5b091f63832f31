import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

/**
 * A write whose success makes the cached reads under `queryKey` stale (refetched where they are
 * shown): a resource's lists and records after one of them is added, changed or removed. The
 * mutation settles once they are marked. `also`: other reads it makes stale (products, whose
 * answers carry what changed). `alsoOnError`: after a failure too, for a write decided on what
 * the page shows, whose refusal (the order shipped meanwhile, the invoice paid) most often means
 * that is out of date.
 */
export function useInvalidatingMutation<I, O>(
  queryKey: QueryKey,
  fn: (input: I) => Promise<O>,
  { also = [], alsoOnError = false }: { also?: readonly QueryKey[]; alsoOnError?: boolean } = {},
) {
  const queryClient = useQueryClient();
  const invalidate = () =>
    Promise.all([queryKey, ...also].map((key) => queryClient.invalidateQueries({ queryKey: key })));
  return useMutation({
    mutationFn: fn,
    ...(alsoOnError ? { onSettled: invalidate } : { onSuccess: invalidate }),
  });
}

/**
 * A write whose answer is the resource as saved (a setting, a profile, a cart): the answer, or
 * the part `of` it names, replaces the cached read under `queryKey`, with nothing read again.
 */
export function useReplacingMutation<I, O>(
  queryKey: QueryKey,
  fn: (input: I) => Promise<O>,
  of: (answer: O) => unknown = (answer) => answer,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (answer) => queryClient.setQueryData(queryKey, of(answer)),
  });
}
