import { useQuery } from "@tanstack/react-query";
import type { Address, AddressInput, AddressPatch } from "#contract/addresses";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

/** The signed-in customer's address book (GET /api/user/addresses), the default first. */
export const useAddresses = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.addresses,
    queryFn: () => apiGet<Address[]>("/user/addresses"),
    enabled,
  });

const useAddressMutation = <T, R>(fn: (input: T) => Promise<R>) =>
  useInvalidatingMutation(queryKeys.addresses, fn);

export const useAddAddress = () =>
  useAddressMutation((input: AddressInput) => apiSend<Address>("POST", "/user/addresses", input));

export const useUpdateAddress = () =>
  useAddressMutation(({ id, patch }: { id: string; patch: AddressPatch }) =>
    apiSend<Address>("PATCH", `/user/addresses/${encodeURIComponent(id)}`, patch),
  );

export const useRemoveAddress = () =>
  useAddressMutation((id: string) =>
    apiSend<void>("DELETE", `/user/addresses/${encodeURIComponent(id)}`),
  );
