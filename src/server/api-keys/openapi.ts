import type { RouteOptions } from "fastify";
import { entryScopes } from "./scopes";

type Json = Record<string, unknown>;

/** The OpenAPI document's scheme for API keys (`Authorization: Bearer <key>`). */
export const apiKeySecurityScheme = {
  type: "http" as const,
  scheme: "bearer",
  description:
    "An API key an admin made on /dashboard/api-keys, sent as `Authorization: Bearer pw_…`. It reaches only the operations whose `x-api-key-scopes` it holds one of (docs/api-keys.md).",
};

/**
 * A route a key may call, in the OpenAPI document: its scope (`x-api-key-scopes`: one of them is
 * needed) and the key among the ways to call it; a scope that depends on the body says how.
 */
export function documentApiScope(route: Pick<RouteOptions, "config">, schema: Json): void {
  const rule = route.config?.apiScope;
  if (rule === undefined) return;
  schema["x-api-key-scopes"] = [...entryScopes(rule)];
  schema.security = [{ session: [] }, { apiKey: [] }, {}];
  if (typeof rule !== "string") {
    schema.description = [schema.description, rule.words].filter(Boolean).join("\n\n");
  }
}
