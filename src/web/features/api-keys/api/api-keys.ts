import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKey, ApiKeyChange, ApiKeyCreate, ApiKeyIssued } from "#contract/api-keys";
import { apiGet, apiSend } from "../../../lib/api-client";

/** The admin's API keys (docs/api-keys.md). */
const keys = { all: ["api-keys"] as const };

/** Every key, newest first, revoked ones too. */
export const useApiKeys = () =>
  useQuery({ queryKey: keys.all, queryFn: () => apiGet<ApiKey[]>("/api-keys") });

function useKeysChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.all });
}

/** Creates a key: the answer holds the whole key, the only time it is sent. */
export function useCreateApiKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: (body: ApiKeyCreate) => apiSend<ApiKeyIssued>("POST", "/api-keys", body),
    onSuccess: changed,
  });
}

export function useChangeApiKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ApiKeyChange }) =>
      apiSend<ApiKey>("PATCH", `/api-keys/${encodeURIComponent(id)}`, body),
    onSuccess: changed,
  });
}

/** A new secret for the key (answered once); the old one stops at once. */
export function useRotateApiKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: (id: string) =>
      apiSend<ApiKeyIssued>("POST", `/api-keys/${encodeURIComponent(id)}/rotate`),
    onSuccess: changed,
  });
}

export function useRevokeApiKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: (id: string) =>
      apiSend<ApiKey>("POST", `/api-keys/${encodeURIComponent(id)}/revoke`),
    onSuccess: changed,
  });
}
