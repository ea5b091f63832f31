import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type Company,
  type CompanyCreate,
  type CompanyInvitation,
  type CompanyInvitationCreate,
  type CompanyMember,
  type CompanyMemberUpdate,
  type CompanyUpdate,
  type MyCompany,
  type CompanyAddress,
  type CompanyAddressPatch,
} from "#contract/companies";
import type { CompanyTax, CompanyTaxInput } from "#contract/tax";
import type { CompanyAddressInput } from "#contract/addresses";
import { apiGet, apiSend } from "../../../lib/api-client";
import { usePageRead } from "../../../lib/use-list-page";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

const keys = {
  all: ["companies"] as const,
  list: (q: object) => ["companies", "list", q] as const,
  detail: (id: string) => ["companies", "detail", id] as const,
  members: (id: string) => ["companies", "members", id] as const,
  invitations: (id: string) => ["companies", "invitations", id] as const,
  mine: ["companies", "mine"] as const,
  tax: (id: string) => ["companies", "tax", id] as const,
  addresses: (id: string) => ["companies", "addresses", id] as const,
};
const at = (id: string) => `/companies/${encodeURIComponent(id)}`;
/** One of the company's members, invitations or addresses, by its id. */
const one = (id: string, of: "members" | "invitations" | "addresses", itemId: string) =>
  `${at(id)}/${of}/${encodeURIComponent(itemId)}`;

export function useCompanies(query: { limit: number; offset: number; q?: string }) {
  return usePageRead<Company>(keys.list(query), "/companies", { ...query });
}

export const useCompany = (id: string) =>
  useQuery({ queryKey: keys.detail(id), queryFn: () => apiGet<Company>(at(id)) });

export const useMembers = (id: string) =>
  useQuery({
    queryKey: keys.members(id),
    queryFn: () => apiGet<CompanyMember[]>(`${at(id)}/members`),
  });

export const useInvitations = (id: string) =>
  useQuery({
    queryKey: keys.invitations(id),
    queryFn: () => apiGet<CompanyInvitation[]>(`${at(id)}/invitations`),
  });

export const useMyCompany = (enabled: boolean) =>
  useQuery({ queryKey: keys.mine, queryFn: () => apiGet<MyCompany>("/company"), enabled });

const useInvalidating = <I, O>(fn: (input: I) => Promise<O>) =>
  useInvalidatingMutation(keys.all, fn);

/** Admin: a company's tax id (EU VAT checked) and exemption certificate (docs/tax.md). */
export const useCompanyTax = (id: string) =>
  useQuery({
    queryKey: keys.tax(id),
    queryFn: () => apiGet<CompanyTax>(`${at(id)}/tax`),
    // A number just recorded is being asked of VIES: its answer is shown when it comes.
    refetchInterval: (q) => (q.state.data?.vies?.status === "pending" ? 2_000 : false),
  });

export const useSetCompanyTax = (id: string) =>
  useInvalidating((body: CompanyTaxInput) => apiSend<CompanyTax>("PUT", `${at(id)}/tax`, body));

/** Admin: "Check again now": the company's EU VAT number asked of VIES (docs/tax.md "VIES"). */
export const useCheckVies = (id: string) =>
  useInvalidating(() => apiSend<CompanyTax>("POST", `${at(id)}/tax/vies-check`));

export const useCreateCompany = () =>
  useInvalidating((body: CompanyCreate) => apiSend<Company>("POST", "/companies", body));

export const useUpdateCompany = (id: string) =>
  useInvalidating((body: CompanyUpdate) => apiSend<Company>("PATCH", at(id), body));

export const useInvite = (id: string) =>
  useInvalidating((body: CompanyInvitationCreate) =>
    apiSend<CompanyInvitation>("POST", `${at(id)}/invitations`, body),
  );

export const useRevokeInvitation = (id: string) =>
  useInvalidating((invitationId: string) =>
    apiSend<void>("DELETE", one(id, "invitations", invitationId)),
  );

export const useUpdateMember = (id: string) =>
  useInvalidating((input: { userId: string; body: CompanyMemberUpdate }) =>
    apiSend<CompanyMember>("PATCH", one(id, "members", input.userId), input.body),
  );

export const useRemoveMember = (id: string) =>
  useInvalidating((userId: string) => apiSend<void>("DELETE", one(id, "members", userId)));

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      apiSend<{ companyId: string; companyName: string; role: string }>(
        "POST",
        "/company-invitations/accept",
        { token },
      ),
    // Prices and the cart change with the company.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** A company's ship-to addresses (its members list them; admins and owners change them). */
export const useCompanyAddresses = (id: string | undefined) =>
  useQuery({
    queryKey: keys.addresses(id ?? ""),
    queryFn: () => apiGet<CompanyAddress[]>(`${at(id!)}/addresses`),
    enabled: id !== undefined,
  });

export const useAddCompanyAddress = (id: string) =>
  useInvalidating((body: CompanyAddressInput) =>
    apiSend<CompanyAddress>("POST", `${at(id)}/addresses`, body),
  );

export const useUpdateCompanyAddress = (id: string) =>
  useInvalidating((input: { id: string; patch: CompanyAddressPatch }) =>
    apiSend<CompanyAddress>("PATCH", one(id, "addresses", input.id), input.patch),
  );

export const useRemoveCompanyAddress = (id: string) =>
  useInvalidating((addressId: string) => apiSend<void>("DELETE", one(id, "addresses", addressId)));
