import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type RouteOptions,
} from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { createRateLimiter } from "./auth/rate-limit";
import { CatalogReadCache } from "./catalog/read-cache";
import { storeProductGate } from "./checkout/product-gate";
import { answeredFromCache } from "./catalog/routes";
import type { Config, OidcClient } from "./config";
import { createDatabase, type Database } from "./db/database";
import { ownWritesHook, primaryOnly, readingOwnWrites, replicaReads } from "./db/read-replica";
import { replicaMetrics } from "./metrics/service";
import { errorHandler } from "./error-handler";
import { applyRequestTimeout } from "./request-deadline";
import { shedStoreOverload } from "./overload";
import { requireCanonicalPath } from "./canonical-path";
import { addSecurityHeaders, securityHeaders } from "./security-headers";
import { trackConnections } from "./drain";
import { limitJsonNesting } from "./json-body";
import {
  createLogger,
  logResponses,
  requestIdGenerator,
  requestLogger,
  trustProxyOption,
} from "./logging";
import { refuseCrossSiteWrites } from "./http/cross-site";
import { API_DOCS_PREFIX, openApiOptions } from "./openapi";
import { metricsRoutes } from "./metrics/routes";
import { createMetrics } from "./metrics/service";
import { registerWebApp } from "./web-app";
import { assembleStore } from "./store-services";
import { registerDomains } from "./domains";
import { partAnswer } from "./catalog/part-routes";

export interface AppDeps {
  config: Config;
  database: Database;
  /** Where the app logs (main.ts's logger); by default a JSON logger at LOG_LEVEL on stdout. */
  logger?: FastifyBaseLogger;
  /** The address people reach the store at; defaults to config.publicUrl, then localhost:PORT. */
  publicUrl?: string;
  /** An OIDC issuer started by the caller (the demo identity provider); overrides config.oidc. */
  oidc?: OidcClient;
  /** Told of every route as it is added (the authorisation matrix test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
}

/** A request of nobody in particular: the server's own pages read as a visitor would. */
const anyone = { headers: {} };

/** Assembles the whole server without listening: `main.ts` starts it, tests `inject()` into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, logger } = deps;
  const publicUrl = deps.publicUrl ?? config.publicUrl ?? `http://localhost:${config.port}`;
  const oidc = deps.oidc ?? config.oidc;
  const app = Fastify({
    loggerInstance: logger ?? createLogger(config.logLevel),
    // One line per request (logResponses below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLogger,
    genReqId: requestIdGenerator(config.trustProxy),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 256 * 1024,
    // Answer malformed ids and queries with 400 rather than routing surprises.
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  // A request still unanswered by then gets 503 (the error handler's "busy or restarting").
  applyRequestTimeout(app, config.requestTimeoutMs, config.orderTimeoutMs);
  // How a shutdown drains without resetting kept-alive connections (drain.ts).
  const { isDraining } = trackConnections(app);
  if (deps.onRoute) app.addHook("onRoute", deps.onRoute);
  logResponses(app);
  requireCanonicalPath(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  limitJsonNesting(app);

  const headers = securityHeaders({
    production: config.env === "production",
    stripe: Boolean(config.stripe),
  });
  addSecurityHeaders(app, headers);

  await app.register(swagger, openApiOptions(publicUrl));
  // The app-wide CSP (security-headers.ts) covers the docs too: Swagger UI needs no inline script.
  // Public by default outside production; in production only when API_DOCS=true (it lists every
  // admin route and its rules).
  if (config.apiDocs) await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX });

  const ownPages = { production: config.env === "production", port: config.port };
  app.addHook("onRequest", refuseCrossSiteWrites(publicUrl, ownPages));
  const metrics = createMetrics(app, database.pool);
  const rateLimiter = createRateLimiter(database.db);
  // The catalog's read cache: made before the shedding, which lets what it answers from memory pass.
  const catalogCache = new CatalogReadCache(2000, config.catalogCache);
  catalogCache.onLookup = (hit) =>
    metrics.catalogCacheLookups.inc({ result: hit ? "hit" : "miss" });
  // Catalog reads from a read replica, when DATABASE_READ_URL names one (db/read-replica.ts).
  const replica = config.databaseReplica
    ? replicaReads(
        database,
        createDatabase(config.databaseReplica.url, undefined, config.databaseTimeouts),
        { ...config.databaseReplica, secureCookie: config.env === "production" },
        app.log,
      )
    : primaryOnly(database.db);
  app.addHook("onClose", () => replica.close());
  catalogCache.onInvalidate = () => replica.changed();
  catalogCache.passBy = readingOwnWrites;
  if (config.databaseReplica) {
    app.addHook("onSend", ownWritesHook(replica));
    replicaMetrics(metrics.registry, replica);
  }
  // Placements of one product queue at its gate, holding no pooled connection (docs/hot-row.md).
  const productGate = storeProductGate(config, {
    log: app.log,
    onShed: () => metrics.requestsShed.inc(),
  });
  shedStoreOverload(app, config, {
    pool: database.pool,
    // The lists carry a signed-in customer's own prices (listPricesFor, domains.ts).
    answeredFromMemory: (req) => answeredFromCache(catalogCache, req, true),
    onShed: metrics.shed,
    headers: headers.api,
  });
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });

  const store = await assembleStore(app, {
    config,
    database,
    publicUrl,
    oidc,
    ownPages,
    metrics,
    rateLimiter,
    catalogCache,
    replica,
    productGate,
    isDraining,
  });
  await app.register((api) => registerDomains(api, store), { prefix: "/api" });

  await registerWebApp(app, {
    webDistDir: config.webDistDir,
    publicUrl,
    currency: config.currency,
    structuredDataWaitMs: config.pageDataWaitMs,
    newestProducts: (limit) =>
      replica.run(anyone, () => store.catalog.page({ sort: "newest", limit, offset: 0 })),
    parts: {
      answer: async (slug) =>
        (await replica.run(anyone, () => partAnswer(catalogCache, store.partPages, slug)))?.body,
      currentAddress: (slug) => store.partPages.currentAddressOf(slug),
      sitemap: store.partPages,
    },
    // A signed-in customer's market counts too (their default delivery country): a part's page
    // is rendered with prices, and its JSON-LD offer in the store's currency, only for the
    // default market. The caller and their country come from memory once warm.
    inDefaultMarket: async (req) =>
      !store.requestMarkets.choice ||
      (await store.requestMarkets.of(req, await store.marketCustomerOf(req))) === undefined,
    cachedList: (url) => {
      const answer = catalogCache.answerFor(url);
      return answer?.total === undefined
        ? undefined
        : { body: answer.response.body, total: answer.total };
    },
  });
  return app;
}
