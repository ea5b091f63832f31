import { useQuery } from "@tanstack/react-query";
import type {
  CustomerGroup,
  CustomerGroupCreate,
  CustomerGroupUpdate,
  PriceRule,
  PriceRuleInput,
} from "#contract/customer-groups";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

const keys = {
  all: ["customer-groups"] as const,
  rules: (groupId: string) => ["customer-groups", "rules", groupId] as const,
};

/** The customer groups (admin): retail first, then the others as they were made. */
export const useCustomerGroups = (enabled = true) =>
  useQuery({
    queryKey: keys.all,
    queryFn: () => apiGet<CustomerGroup[]>("/customer-groups"),
    enabled,
  });

export const usePriceRules = (groupId: string | undefined) =>
  useQuery({
    queryKey: keys.rules(groupId ?? ""),
    queryFn: () => apiGet<PriceRule[]>(`/customer-groups/${encodeURIComponent(groupId!)}/rules`),
    enabled: !!groupId,
  });

// A group's or a rule's change moves what buyers pay: their product prices too.
const useInvalidating = <I, O>(fn: (input: I) => Promise<O>) =>
  useInvalidatingMutation(keys.all, fn, { also: [["product-price"]] });

export const useCreateCustomerGroup = () =>
  useInvalidating((body: CustomerGroupCreate) =>
    apiSend<CustomerGroup>("POST", "/customer-groups", body),
  );

export const useUpdateCustomerGroup = () =>
  useInvalidating(({ id, ...body }: CustomerGroupUpdate & { id: string }) =>
    apiSend<CustomerGroup>("PATCH", `/customer-groups/${encodeURIComponent(id)}`, body),
  );

export const useDeleteCustomerGroup = () =>
  useInvalidating((id: string) =>
    apiSend<null>("DELETE", `/customer-groups/${encodeURIComponent(id)}`),
  );

export const useAddPriceRule = (groupId: string) =>
  useInvalidating((body: PriceRuleInput) =>
    apiSend<PriceRule>("POST", `/customer-groups/${encodeURIComponent(groupId)}/rules`, body),
  );

export const useUpdatePriceRule = (groupId: string) =>
  useInvalidating(({ ruleId, ...body }: PriceRuleInput & { ruleId: string }) =>
    apiSend<PriceRule>(
      "PATCH",
      `/customer-groups/${encodeURIComponent(groupId)}/rules/${encodeURIComponent(ruleId)}`,
      body,
    ),
  );

export const useRemovePriceRule = (groupId: string) =>
  useInvalidating((ruleId: string) =>
    apiSend<null>(
      "DELETE",
      `/customer-groups/${encodeURIComponent(groupId)}/rules/${encodeURIComponent(ruleId)}`,
    ),
  );
