import type { ApiScope } from "../../contract/api-keys";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The scope an API key needs to call this route (docs/api-keys.md). A route without one
     * cannot be called with a key at all. Only admin-only and public routes may declare one
     * (checked as routes are added: `acceptApiKeys`).
     */
    apiScope?: ApiScopeRule;
  }
}

/** A route's scope: one, or one that depends on the fields its body sends. */
export type ApiScopeRule = ApiScope | BodyScopes;

export interface BodyScopes {
  /** A key needs at least one of these to be let in, before the body is read… */
  anyOf: readonly ApiScope[];
  /** …and, once the body is checked, every scope the fields it sends need. */
  forBody(body: unknown): ApiScope[];
  /** Which fields need which scope, in words (the OpenAPI document says it). */
  words: string;
}

/** The scopes a key needs to be let in to a route of this rule (one of them). */
export const entryScopes = (rule: ApiScopeRule): readonly ApiScope[] =>
  typeof rule === "string" ? [rule] : rule.anyOf;

/** A product's fields that are its price, and its stock; every other field is the catalog's. */
const PRICE_FIELDS = new Set(["price", "breaks"]);
const STOCK_FIELDS = new Set(["availableQuantity", "availableQuantityWas"]);

/**
 * `PATCH /api/products/:id`: a new list price (and its quantity breaks) needs `prices:write`, a
 * new stock `inventory:write`, any other field `catalog:write`; a body of several kinds needs
 * each. An ERP that only sets stock holds `inventory:write` alone.
 */
export const productChangeScopes: BodyScopes = {
  anyOf: ["catalog:write", "inventory:write", "prices:write"],
  forBody(body) {
    const fields = Object.keys(body && typeof body === "object" ? body : {});
    const needed = new Set<ApiScope>();
    for (const f of fields) {
      if (PRICE_FIELDS.has(f)) needed.add("prices:write");
      else if (STOCK_FIELDS.has(f)) needed.add("inventory:write");
      else needed.add("catalog:write");
    }
    return [...needed];
  },
  words:
    "With an API key: `price` and `breaks` need prices:write, `availableQuantity` and `availableQuantityWas` inventory:write, any other field catalog:write.",
};
