import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { apiKeyMessages as say } from "../../contract/api-keys";
import { forbidden, HttpError } from "../errors";
import { bearerKeyOf, type Guards } from "../http/request-context";
import type { ApiKeyService } from "./service";
import { entryScopes, type ApiScopeRule } from "./scopes";

/** The guards a route that declares a scope must not have: they let people in, not keys. */
const peopleGuards = (guards: Guards) =>
  new Set<unknown>([
    guards.signedIn,
    guards.customerOnly,
    guards.customerPlacing,
    guards.customerOrAdmin,
  ]);

/** A route's hooks of one kind, as a list. */
const hooksOf = (hooks: RouteOptions["onRequest"]): unknown[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/** 401 for a key that does not hold, with the header that says a Bearer key is wanted. */
function refuseKey(reply: FastifyReply, err: unknown): never {
  if (err instanceof HttpError && err.statusCode === 401) {
    reply.header("www-authenticate", 'Bearer realm="api", error="invalid_token"');
  }
  throw err;
}

/**
 * `Authorization: Bearer <key>` on every route of `api` (docs/api-keys.md), the first of its
 * hooks: a request that carries one is judged by its key only. Its cookie is dropped (nothing
 * further on can read it), the key is checked (401), the route must declare a scope the key
 * holds (403), the key's rate limit is counted (429), and the admin it acts as is left on the
 * request for the guards (`req.apiKeyCaller`). A route whose scope depends on its body is
 * checked again once the body is (`preHandler`). Requests without the header are not touched:
 * cookie rules stay as they were.
 */
export function acceptApiKeys(
  api: FastifyInstance,
  opts: { keys: ApiKeyService; guards: Guards },
): void {
  const { keys } = opts;
  const forPeople = peopleGuards(opts.guards);
  api.decorateRequest("apiKeyCaller", null);

  // A scope only on admin-only and public routes: a route for people (a customer's cart, a
  // signed-in user's own orders) never opens to a key, whatever it declares.
  api.addHook("onRoute", (route) => {
    if (route.config?.apiScope === undefined) return;
    if (hooksOf(route.onRequest).some((h) => forPeople.has(h))) {
      throw new Error(
        `${String(route.method)} ${route.url}: a route for people cannot declare an API scope`,
      );
    }
  });

  // Not async: a request without a key (nearly all of them) passes without a promise made.
  api.addHook("onRequest", (req, reply, done) => {
    const key = bearerKeyOf(req);
    if (key === undefined) return done();
    judgeByKey(req, reply, key).then(() => done(), done);
  });

  async function judgeByKey(req: FastifyRequest, reply: FastifyReply, key: string) {
    // Judged by its key only: a session cookie sent along is not read by anything after this.
    delete req.headers.cookie;
    const accepted = await keys.authenticate(key).catch((err: unknown) => refuseKey(reply, err));
    // No such route: the not-found answer, as for anyone. (The app's not-found handler is outside
    // /api and does not pass here today; this keeps it so should one be set inside.)
    if (req.is404) return;
    const rule: ApiScopeRule | undefined = req.routeOptions.config.apiScope;
    if (rule === undefined) throw forbidden(say.notForKeys);
    const entry = entryScopes(rule);
    if (!entry.some((s) => accepted.scopes.includes(s))) {
      throw forbidden(say.needsOneOf(entry));
    }
    const use = await keys.countUse(accepted);
    if (!use.allowed) {
      reply.header("retry-after", use.retryAfter);
      throw new HttpError(
        429,
        "too_many_requests",
        say.tooMany(accepted.rateLimitPerMinute, use.retryAfter),
      );
    }
    req.apiKeyCaller = accepted.caller;
    scopesOf.set(req, accepted.scopes);
  }

  // A scope that depends on the fields sent (a product's price, its stock): checked once the
  // body is, before the company hooks and the handler.
  api.addHook("preHandler", (req, _reply, done) => {
    const scopes = scopesOf.get(req);
    const rule = req.routeOptions.config.apiScope;
    if (!scopes || rule === undefined || typeof rule === "string") return done();
    const missing = rule.forBody(req.body).filter((s) => !scopes.includes(s));
    done(missing.length > 0 ? forbidden(say.missingScopes(missing)) : undefined);
  });
}

/** The scopes of the key each request was let in with (gone with the request). */
const scopesOf = new WeakMap<FastifyRequest, readonly string[]>();
