import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  apiKeyChangeSchema,
  apiKeyCreateSchema,
  apiKeyIssuedSchema,
  apiKeyParamsSchema,
  apiKeySchema,
} from "../../contract/api-keys";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import type { ApiKeyService } from "./service";

export interface ApiKeyRoutesOptions {
  keys: ApiKeyService;
  guards: Guards;
}

const writeErrors = errorAnswers(400, 401, 403, 404, 409);

/**
 * The admin's API keys (docs/api-keys.md): list, create (the key is answered once), change,
 * rotate (a new key, answered once) and revoke. Admins only, with their session: no route here
 * declares a scope, so a key can never make or change keys.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<ApiKeyRoutesOptions> = async (
  app,
  { keys, guards },
) => {
  const tags = ["api-keys"];
  const onRequest = guards.adminOnly;

  app.get(
    "/api-keys",
    {
      schema: {
        tags,
        summary:
          "Admin: every API key, newest first, revoked ones too, with its prefix, scopes, last use and status (never its secret)",
        response: { 200: z.array(apiKeySchema), ...errorAnswers(401, 403) },
      },
      onRequest,
    },
    async () => keys.list(),
  );

  app.post(
    "/api-keys",
    {
      schema: {
        tags,
        summary:
          "Admin: create an API key with scopes, an optional expiry and a rate limit; the answer holds the whole key, the only time it is shown",
        body: apiKeyCreateSchema,
        response: { 201: apiKeyIssuedSchema, ...errorAnswers(400, 401, 403, 409) },
      },
      onRequest,
    },
    async (req, reply) => reply.code(201).send(await keys.create(caller(req), req.body)),
  );

  app.patch(
    "/api-keys/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: rename an API key or change its scopes, expiry (null: never) or rate limit; a revoked key is 409",
        params: apiKeyParamsSchema,
        body: apiKeyChangeSchema,
        response: { 200: apiKeySchema, ...writeErrors },
      },
      onRequest,
    },
    async (req) => keys.change(caller(req), req.params.id, req.body),
  );

  app.post(
    "/api-keys/:id/rotate",
    {
      schema: {
        tags,
        summary:
          "Admin: a new secret for an API key, same settings; the old key is refused at once; the answer holds the new key, the only time it is shown",
        params: apiKeyParamsSchema,
        response: { 200: apiKeyIssuedSchema, ...writeErrors },
      },
      onRequest,
    },
    async (req) => keys.rotate(caller(req), req.params.id),
  );

  app.post(
    "/api-keys/:id/revoke",
    {
      schema: {
        tags,
        summary:
          "Admin: revoke an API key: refused at once from then on; it stays in the list, marked revoked, for the audit log",
        params: apiKeyParamsSchema,
        response: { 200: apiKeySchema, ...writeErrors },
      },
      onRequest,
    },
    async (req) => keys.revoke(caller(req), req.params.id),
  );
};
