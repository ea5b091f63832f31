import { useQuery } from "@tanstack/react-query";
import type { ApiKey, ApiKeyChange, ApiKeyCreate, ApiKeyIssued } from "#contract/api-keys";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

/** The admin's API keys (docs/api-keys.md). */
const keys = { all: ["api-keys"] as const };

/** Every key, newest first, revoked ones too. */
export const useApiKeys = () =>
  useQuery({ queryKey: keys.all, queryFn: () => apiGet<ApiKey[]>("/api-keys") });

/** Creates a key: the answer holds the whole key, the only time it is sent. */
export function useCreateApiKey() {
  return useInvalidatingMutation(keys.all, (body: ApiKeyCreate) =>
    apiSend<ApiKeyIssued>("POST", "/api-keys", body),
  );
}

export function useChangeApiKey() {
  return useInvalidatingMutation(keys.all, ({ id, body }: { id: string; body: ApiKeyChange }) =>
    apiSend<ApiKey>("PATCH", `/api-keys/${encodeURIComponent(id)}`, body),
  );
}

/** A new secret for the key (answered once); the old one stops at once. */
export function useRotateApiKey() {
  return useInvalidatingMutation(keys.all, (id: string) =>
    apiSend<ApiKeyIssued>("POST", `/api-keys/${encodeURIComponent(id)}/rotate`),
  );
}

export function useRevokeApiKey() {
  return useInvalidatingMutation(keys.all, (id: string) =>
    apiSend<ApiKey>("POST", `/api-keys/${encodeURIComponent(id)}/revoke`),
  );
}
