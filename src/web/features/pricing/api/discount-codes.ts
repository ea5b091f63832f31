import type { DiscountCode, DiscountCodeInput } from "#contract/discount-codes";
import { apiSend } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

const keys = {
  all: ["discount-codes"] as const,
  list: (q: object) => ["discount-codes", "list", q] as const,
};

/** The admin's discount codes, a page at a time (`q` searches codes). */
export function useDiscountCodes(query: { limit: number; offset: number; q?: string }) {
  return usePageRead<DiscountCode>(keys.list(query), "/discount-codes", { ...query });
}

const useInvalidating = <I, O>(fn: (input: I) => Promise<O>) =>
  useInvalidatingMutation(keys.all, fn);

export const useCreateDiscountCode = () =>
  useInvalidating((body: DiscountCodeInput) =>
    apiSend<DiscountCode>("POST", "/discount-codes", body),
  );

export const useUpdateDiscountCode = () =>
  useInvalidating(({ id, ...body }: DiscountCodeInput & { id: string }) =>
    apiSend<DiscountCode>("PATCH", `/discount-codes/${encodeURIComponent(id)}`, body),
  );

export const useSwitchOffDiscountCode = () =>
  useInvalidating((id: string) =>
    apiSend<null>("DELETE", `/discount-codes/${encodeURIComponent(id)}`),
  );
