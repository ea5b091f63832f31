import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  webhookDeliveryDetailSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookDeliveryQuerySchema,
  webhookEndpointChangeSchema,
  webhookEndpointCreateSchema,
  webhookEndpointIssuedSchema,
  webhookEndpointListSchema,
  webhookEndpointParamsSchema,
  webhookEndpointSchema,
} from "../../contract/webhooks";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import type { WebhookService } from "./service";

export interface WebhookRoutesOptions {
  webhooks: WebhookService;
  guards: Guards;
}

const readErrors = errorAnswers(400, 401, 403, 404);
const writeErrors = errorAnswers(400, 401, 403, 404, 409);

/**
 * Outgoing webhooks (docs/webhooks.md): endpoints (list, add: the secret is answered once,
 * change, delete, rotate the secret, send a test event) and the delivery log (list, one with its
 * attempts, replay). Admins, or an API key with the `webhooks:manage` scope.
 */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (
  app,
  { webhooks, guards },
) => {
  const tags = ["webhooks"];
  const onRequest = guards.adminOnly;
  const config = { apiScope: "webhooks:manage" as const };

  app.get(
    "/webhook-endpoints",
    {
      schema: {
        tags,
        summary:
          "Admin: every webhook endpoint, newest first, with its events and status (never its secret)",
        response: { 200: webhookEndpointListSchema, ...errorAnswers(401, 403) },
      },
      onRequest,
      config,
    },
    async () => ({ endpoints: await webhooks.list() }),
  );

  app.post(
    "/webhook-endpoints",
    {
      schema: {
        tags,
        summary:
          "Admin: add a webhook endpoint (URL, description, events); the answer holds its signing secret, the only time it is shown. A private, loopback or link-local address is 400 unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES",
        body: webhookEndpointCreateSchema,
        response: { 201: webhookEndpointIssuedSchema, ...errorAnswers(400, 401, 403) },
      },
      onRequest,
      config,
    },
    async (req, reply) => reply.code(201).send(await webhooks.create(caller(req), req.body)),
  );

  app.get(
    "/webhook-endpoints/:id",
    {
      schema: {
        tags,
        summary: "Admin: one webhook endpoint",
        params: webhookEndpointParamsSchema,
        response: { 200: webhookEndpointSchema, ...readErrors },
      },
      onRequest,
      config,
    },
    async (req) => webhooks.get(req.params.id),
  );

  app.patch(
    "/webhook-endpoints/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: change a webhook endpoint's URL, description or events, or disable (enabled: false) or enable it",
        params: webhookEndpointParamsSchema,
        body: webhookEndpointChangeSchema,
        response: { 200: webhookEndpointSchema, ...writeErrors },
      },
      onRequest,
      config,
    },
    async (req) => webhooks.change(caller(req), req.params.id, req.body),
  );

  app.delete(
    "/webhook-endpoints/:id",
    {
      schema: {
        tags,
        summary: "Admin: delete a webhook endpoint and its delivery log",
        params: webhookEndpointParamsSchema,
        response: { 204: z.null().describe("Deleted"), ...readErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) => {
      await webhooks.remove(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/webhook-endpoints/:id/rotate-secret",
    {
      schema: {
        tags,
        summary:
          "Admin: a new signing secret, answered once; for 24 hours deliveries are signed with both the new and the previous secret",
        params: webhookEndpointParamsSchema,
        response: { 200: webhookEndpointIssuedSchema, ...readErrors },
      },
      onRequest,
      config,
    },
    async (req) => webhooks.rotateSecret(caller(req), req.params.id),
  );

  app.post(
    "/webhook-endpoints/:id/test",
    {
      schema: {
        tags,
        summary:
          "Admin: send the endpoint a webhook.ping event now; answers its delivery (see the delivery log for the result)",
        params: webhookEndpointParamsSchema,
        response: { 202: webhookDeliveryDetailSchema, ...writeErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) => reply.code(202).send(await webhooks.sendTest(caller(req), req.params.id)),
  );

  app.get(
    "/webhook-deliveries",
    {
      schema: {
        tags,
        summary:
          "Admin: webhook deliveries, newest first, 50 a page, of one endpoint or all, of one status or all",
        querystring: webhookDeliveryQuerySchema,
        response: { 200: webhookDeliveryListSchema, ...errorAnswers(400, 401, 403) },
      },
      onRequest,
      config,
    },
    async (req) => webhooks.deliveries(req.query),
  );

  app.get(
    "/webhook-deliveries/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: one webhook delivery with the body sent and every attempt (headers, answer's status and start of its body, time taken, error)",
        params: webhookDeliveryParamsSchema,
        response: { 200: webhookDeliveryDetailSchema, ...readErrors },
      },
      onRequest,
      config,
    },
    async (req) => webhooks.delivery(req.params.id),
  );

  app.post(
    "/webhook-deliveries/:id/replay",
    {
      schema: {
        tags,
        summary:
          "Admin: send a delivery again now, whatever its status, with the same webhook-id and body and a new round of retries",
        params: webhookDeliveryParamsSchema,
        response: { 202: webhookDeliveryDetailSchema, ...readErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) => reply.code(202).send(await webhooks.replay(caller(req), req.params.id)),
  );
};
