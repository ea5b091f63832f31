import type { CoreDeposit, CoreDepositInput } from "#contract/core-charges";
import { apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

/** Admin: a product's core deposit per unit; null takes it off (docs/core-charges.md). */
export function useSetCoreDeposit(productId: string) {
  return useInvalidatingMutation(queryKeys.products.all, (input: CoreDepositInput) =>
    apiSend<CoreDeposit>("PUT", `/products/${encodeURIComponent(productId)}/core-deposit`, input),
  );
}
