import type { SwaggerOptions } from "@fastify/swagger";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { authOpenApiPaths } from "./auth/openapi-paths";
import { apiKeySecurityScheme, documentApiScope } from "./api-keys/openapi";
import { documentIdempotencyKey } from "./idempotency/openapi";

type Json = Record<string, unknown>;

/** `GET /api/products/:id` → `getApiProductsById`: unique, stable, readable. */
function operationId(method: string, url: string): string {
  const words = url
    .split("/")
    .filter(Boolean)
    .map((part) => (part.startsWith(":") ? `by-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[-_]/))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join("");
}

/**
 * An object schema whose `required` names keys only `additionalProperties` describes (a record
 * keyed by an enum, as the order counts by status are) gets those keys spelt out.
 */
function spellOutRequired(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(spellOutRequired);
  if (!node || typeof node !== "object") return;
  const schema = node as Json;
  const required = schema.required;
  const extra = schema.additionalProperties;
  if (Array.isArray(required) && extra && typeof extra === "object") {
    const properties = (schema.properties ?? {}) as Json;
    for (const key of required as string[]) properties[key] ??= extra;
    schema.properties = properties;
  }
  Object.values(schema).forEach(spellOutRequired);
}

/**
 * A route that reads its body itself (a multipart upload, a CSV or NDJSON stream) has no body
 * schema for Fastify to check; the document still says what it takes, so that a client
 * generated from it can send one: a form of files, or a text in each content type it consumes.
 */
function documentRawBody(schema: Json): void {
  const consumes = schema.consumes;
  if (schema.body !== undefined || !Array.isArray(consumes) || consumes.length === 0) return;
  schema.body = consumes.includes("multipart/form-data")
    ? { type: "object", additionalProperties: { type: "string", format: "binary" } }
    : { type: "string" };
}

/** Where Swagger UI (a page) and the OpenAPI document (`/json`) are served. */
export const API_DOCS_PREFIX = "/api/docs";

/**
 * The OpenAPI document at /api/docs: every route's zod schemas, Better Auth's endpoints, the
 * session cookie as the security scheme, operation ids and the store's address as the server.
 */
export function openApiOptions(publicUrl: string): SwaggerOptions {
  return {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "PartsWorks store API",
        version: "1.0.0",
        description:
          "The car-parts store's API. Errors are `{ error, message }`; signed-in calls carry the session cookie set by sign-in; other systems send an API key as `Authorization: Bearer <key>` (the operations with `x-api-key-scopes`).",
        license: { name: "Proprietary", url: `${publicUrl}/` },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: "better-auth.session_token",
            description: "The session cookie (`__Secure-better-auth.session_token` over HTTPS)",
          },
          apiKey: apiKeySecurityScheme,
        },
      },
      // Each route decides (401/403 when it needs a session it lacks); public ones need none.
      security: [{ session: [] }, {}],
    },
    transform: (args) => {
      const out = jsonSchemaTransform(args);
      const schema = out.schema as Json;
      if (!schema.hide) schema.operationId ??= operationId(String(args.route.method), out.url);
      documentApiScope(args.route, schema);
      documentIdempotencyKey(args.route, schema);
      documentRawBody(schema);
      return out;
    },
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Json }).openapiObject;
      doc.paths = { ...(doc.paths as Json), ...authOpenApiPaths };
      const components = doc.components as Json;
      components.schemas = {
        ...(components.schemas as Json),
        ApiError: {
          type: "object",
          required: ["error", "message"],
          properties: {
            error: { type: "string" },
            message: { type: "string" },
            fields: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      };
      spellOutRequired(doc.paths);
      // Any route can be refused before its handler runs (headers too large, a URL too long,
      // a body over the limit): operations that list no 4xx of their own say so in general.
      for (const ops of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
        for (const op of Object.values(ops)) {
          const responses = (op.responses ?? {}) as Json;
          if (!Object.keys(responses).some((code) => code.startsWith("4"))) {
            responses["4XX"] = {
              description:
                "Refused before it reached the route (`{ error, message }` from the store)",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/ApiError" } },
              },
            };
            op.responses = responses;
          }
        }
      }
      return doc;
    },
  };
}
