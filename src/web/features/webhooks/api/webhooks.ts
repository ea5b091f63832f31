import { useQuery } from "@tanstack/react-query";
import type {
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEndpointCreate,
  WebhookEndpointIssued,
} from "#contract/webhooks";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

/** The admin's webhook endpoints and delivery log (docs/webhooks.md). */
const keys = {
  endpoints: ["webhook-endpoints"] as const,
  deliveries: ["webhook-deliveries"] as const,
};

export const useWebhookEndpoints = () =>
  useQuery({
    queryKey: keys.endpoints,
    queryFn: async () =>
      (await apiGet<{ endpoints: WebhookEndpoint[] }>("/webhook-endpoints")).endpoints,
  });

/** One endpoint's deliveries, newest first, a page of 50; refreshed every 2 seconds. */
export const useWebhookDeliveries = (
  endpointId: string,
  status: WebhookDeliveryStatus | "",
  page: number,
) =>
  useQuery({
    queryKey: [...keys.deliveries, endpointId, status, page],
    queryFn: () =>
      apiGet<WebhookDeliveryList>(
        `/webhook-deliveries?${new URLSearchParams({
          endpointId,
          page: String(page),
          ...(status ? { status } : {}),
        })}`,
      ),
    refetchInterval: 2_000,
  });

export const useWebhookDelivery = (id: string) =>
  useQuery({
    queryKey: [...keys.deliveries, "one", id],
    queryFn: () => apiGet<WebhookDeliveryDetail>(`/webhook-deliveries/${encodeURIComponent(id)}`),
    refetchInterval: 2_000,
  });

/** After any change: the endpoints and the delivery log. */
const alsoDeliveries = { also: [keys.deliveries] };

/** Adds an endpoint: the answer holds its signing secret, the only time it is sent. */
export function useCreateWebhookEndpoint() {
  return useInvalidatingMutation(
    keys.endpoints,
    (body: WebhookEndpointCreate) =>
      apiSend<WebhookEndpointIssued>("POST", "/webhook-endpoints", body),
    alsoDeliveries,
  );
}

export function useChangeWebhookEndpoint() {
  return useInvalidatingMutation(
    keys.endpoints,
    ({ id, body }: { id: string; body: WebhookEndpointChange }) =>
      apiSend<WebhookEndpoint>("PATCH", `/webhook-endpoints/${encodeURIComponent(id)}`, body),
    alsoDeliveries,
  );
}

export function useDeleteWebhookEndpoint() {
  return useInvalidatingMutation(
    keys.endpoints,
    (id: string) => apiSend<null>("DELETE", `/webhook-endpoints/${encodeURIComponent(id)}`),
    alsoDeliveries,
  );
}

/** A new signing secret (answered once); the previous one signs too for 24 hours. */
export function useRotateWebhookSecret() {
  return useInvalidatingMutation(
    keys.endpoints,
    (id: string) =>
      apiSend<WebhookEndpointIssued>(
        "POST",
        `/webhook-endpoints/${encodeURIComponent(id)}/rotate-secret`,
      ),
    alsoDeliveries,
  );
}

export function useSendWebhookTest() {
  return useInvalidatingMutation(
    keys.endpoints,
    (id: string) =>
      apiSend<WebhookDeliveryDetail>("POST", `/webhook-endpoints/${encodeURIComponent(id)}/test`),
    alsoDeliveries,
  );
}

export function useReplayWebhookDelivery() {
  return useInvalidatingMutation(
    keys.endpoints,
    (id: string) =>
      apiSend<WebhookDeliveryDetail>(
        "POST",
        `/webhook-deliveries/${encodeURIComponent(id)}/replay`,
      ),
    alsoDeliveries,
  );
}
