import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CoreDeposit, CoreDepositInput } from "#contract/core-charges";
import { apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** Admin: a product's core deposit per unit; null takes it off (docs/core-charges.md). */
export function useSetCoreDeposit(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CoreDepositInput) =>
      apiSend<CoreDeposit>("PUT", `/products/${encodeURIComponent(productId)}/core-deposit`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.products.all }),
  });
}
