import fs from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { SocialProvider } from "../contract/site-config";
import { createAuth } from "./auth/auth";
import { createGuards } from "./auth/guards";
import { createSessionReader } from "./auth/session-reader";
import { createRateLimiter } from "./auth/rate-limit";
import { authRoutes } from "./auth/routes";
import { loadAuthSecret } from "./auth/secret";
import Stripe from "stripe";
import { listenForCatalogChanges } from "./catalog/catalog-changes";
import { CatalogReadCache } from "./catalog/read-cache";
import { cartRoutes } from "./cart/routes";
import { createCartService } from "./cart/service";
import { catalogRoutes } from "./catalog/routes";
import { createCatalogService } from "./catalog/service";
import type { Config, OidcClient } from "./config";
import type { Database } from "./db/database";
import { errorHandler } from "./error-handler";
import { addSecurityHeaders, securityHeaders } from "./security-headers";
import { databaseAnswers, healthRoutes } from "./health/routes";
import { limitJsonNesting } from "./json-body";
import { createAccountMail } from "./mail/account-mail";
import { startLocalSmtpServer } from "./mail/local-smtp";
import { mailboxRoutes } from "./mail/mailbox-routes";
import { startMailer } from "./mail/mailer";
import { createInventory } from "./inventory/service";
import { orderRoutes } from "./orders/routes";
import { createOrderService } from "./orders/service";
import { paymentRoutes, type PaymentRoutesOptions } from "./payments/routes";
import { createPaymentService } from "./payments/service";
import { createStripeGateway } from "./payments/stripe-gateway";
import { createTestCardGateway } from "./payments/test-card-gateway";
import { reviewRoutes } from "./reviews/routes";
import { createReviewService } from "./reviews/service";
import { siteConfigRoutes } from "./site-config/routes";
import { userRoutes } from "./users/routes";
import { createUserService } from "./users/service";
import { registerWebApp } from "./web-app";

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** The address people reach the store at; defaults to config.publicUrl, then localhost:PORT. */
  publicUrl?: string;
  /** An OIDC issuer started by the caller (the demo identity provider); overrides config.oidc. */
  oidc?: OidcClient;
  /** Told of every route as it is added (the authorisation matrix test lists them this way). */
  onRoute?: (route: RouteOptions) => void;
}

/** Assembles the whole server without listening: `main.ts` starts it, tests `inject()` into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, logger } = deps;
  const publicUrl = deps.publicUrl ?? config.publicUrl ?? `http://localhost:${config.port}`;
  const oidc = deps.oidc ?? config.oidc;
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 256 * 1024,
    // A request still unanswered by then gets 503 (the error handler's "busy or restarting").
    handlerTimeout: config.requestTimeoutMs,
    // Answer malformed ids and queries with 400 rather than routing surprises.
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  if (deps.onRoute) app.addHook("onRoute", deps.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  limitJsonNesting(app);

  addSecurityHeaders(
    app,
    securityHeaders({ production: config.env === "production", stripe: Boolean(config.stripe) }),
  );

  await app.register(swagger, {
    openapi: {
      info: { title: "PartsWorks store API", version: "1.0.0" },
    },
    transform: jsonSchemaTransform,
  });
  // The app-wide CSP (security-headers.ts) covers the docs too: Swagger UI needs no inline script.
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  app.addHook("onRequest", refuseCrossSiteWrites(publicUrl));

  // Mail: SMTP_URL, else (outside production) a local SMTP server whose messages /dev/mailbox
  // shows. Queued in PostgreSQL (pg-boss) and sent by a worker; stopped when the app closes.
  const localSmtp =
    config.mail.smtpUrl || config.env === "production" ? undefined : await startLocalSmtpServer();
  const mailer = startMailer({
    databaseUrl: database.url,
    smtpUrl: config.mail.smtpUrl ?? localSmtp?.url,
    from: config.mail.from,
    retryDelaySeconds: config.mail.retryDelaySeconds,
    retryLimit: config.mail.retryLimit,
    log: app.log,
  });
  app.addHook("onClose", async () => {
    await mailer.stop();
    await localSmtp?.stop();
  });
  if (localSmtp) {
    app.log.info(`demo mail goes to ${localSmtp.url}: read it at ${publicUrl}/dev/mailbox`);
    await app.register(mailboxRoutes, { smtp: localSmtp });
  }

  const authSecret = await loadAuthSecret(config.authSecret, config.dataDir);
  const auth = createAuth({
    db: database.db,
    publicUrl,
    secret: authSecret,
    production: config.env === "production",
    adminEmails: config.adminEmails,
    google: config.google,
    github: config.github,
    oidc,
    mail: createAccountMail(mailer, publicUrl),
    log: app.log,
  });
  const guards = createGuards(
    createSessionReader(database.pool, authSecret, config.env === "production"),
  );
  const socialProviders: SocialProvider[] = [
    ...(config.google ? [{ id: "google" as const, label: "Google" }] : []),
    ...(config.github ? [{ id: "github" as const, label: "GitHub" }] : []),
    ...(oidc ? [{ id: "oidc" as const, label: oidc.label }] : []),
  ];
  const catalog = createCatalogService(database.db);
  const catalogCache = new CatalogReadCache(2000, config.catalogCache);
  const catalogChanges = listenForCatalogChanges(
    database.url,
    {
      onChange: (change) => catalogCache.invalidate(change),
      onListening: (listening) => catalogCache.setListening(listening),
    },
    app.log,
  );
  app.addHook("onClose", () => catalogChanges.stop());
  // Stock moved in this process (an order took it, a cancellation gave it back): the cached
  // answers go as soon as the move commits, so the writer's next read sees it; other processes
  // hear it through NOTIFY.
  const inventory = createInventory(database.db, () => catalogCache.invalidate("stock"));
  // Product images uploaded by admins live in the data folder, served at /uploads/.
  const uploadsDir = path.join(config.dataDir, "uploads");
  await fs.mkdir(uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: uploadsDir,
    prefix: "/uploads/",
    decorateReply: false,
    setHeaders: (reply) => reply.header("cache-control", "public, max-age=31536000, immutable"),
  });
  const reviews = createReviewService(database.db);
  const users = createUserService(database.db, inventory);
  const orders = createOrderService(database.db, inventory, {
    currency: config.currency,
    holdMs: config.orderHoldMs,
    limits: config.holdLimits,
  });
  const cart = createCartService(database.db, orders, { currency: config.currency });
  const payment = createPaymentGateway(config, database);
  const payments = createPaymentService(database.db, inventory, payment.gateway, app.log);
  startHoldSweeper(app, orders.cancelExpired, config.holdSweepMs);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      await api.register(siteConfigRoutes, {
        siteConfig: {
          currency: config.currency,
          socialProviders,
          payments: {
            gateway: payment.gateway.name,
            publishableKey: config.stripe?.publishableKey,
          },
        },
      });
      await api.register(authRoutes, {
        auth,
        publicUrl,
        rateLimiter: createRateLimiter(database.db),
        limits: config.authRateLimit,
        databaseAnswers: () => databaseAnswers(database),
      });
      await api.register(userRoutes, { users, guards });
      await api.register(orderRoutes, { orders, payments, guards });
      await api.register(cartRoutes, { cart, guards });
      await api.register(paymentRoutes, {
        payments,
        guards,
        rateLimiter: createRateLimiter(database.db),
        ...payment.routes,
      });
      await api.register(catalogRoutes, { catalog, catalogCache, guards, uploadsDir });
      await api.register(reviewRoutes, {
        reviews,
        guards,
        rateLimiter: createRateLimiter(database.db),
      });
    },
    { prefix: "/api" },
  );

  await registerWebApp(app, {
    webDistDir: config.webDistDir,
    publicUrl,
    currency: config.currency,
    newestProducts: (limit) => catalog.page({ sort: "newest", limit, offset: 0 }),
  });
  return app;
}

/**
 * A state-changing API call must come from our own pages: a browser always sends Origin on such
 * requests, so a foreign Origin means another site is making the visitor's browser call us.
 */
function refuseCrossSiteWrites(publicUrl: string) {
  const ours = new URL(publicUrl).origin;
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return;
    if (!req.url.startsWith("/api/")) return;
    const origin = req.headers.origin;
    const sameHost = origin === `${req.protocol}://${req.headers.host}`;
    const crossSite = origin
      ? origin !== ours && !sameHost
      : req.headers["sec-fetch-site"] === "cross-site";
    if (crossSite) {
      return reply
        .code(403)
        .send({ error: "cross_site", message: "Cross-site requests are not accepted" });
    }
  };
}

/** Stripe when it is configured, else the built-in test-card gateway. */
function createPaymentGateway(config: Config, database: Database) {
  if (config.stripe) {
    const client = new Stripe(config.stripe.secretKey);
    const routes: Partial<PaymentRoutesOptions> = config.stripe.webhookSecret
      ? { stripeWebhook: { client, secret: config.stripe.webhookSecret } }
      : {};
    return { gateway: createStripeGateway(client), routes };
  }
  const testCard = createTestCardGateway(database.db);
  return { gateway: testCard, routes: { testCard } };
}

/** Cancels unpaid orders whose stock hold ran out, now and then, while the server runs. */
function startHoldSweeper(app: FastifyInstance, sweep: () => Promise<number>, everyMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const run = () =>
    sweep().then(
      (n) => n > 0 && app.log.info(`cancelled ${n} unpaid order(s) past their hold`),
      (err: unknown) => app.log.error({ err }, "hold sweeper failed"),
    );
  app.addHook("onReady", async () => {
    void run();
    timer = setInterval(run, everyMs);
    timer.unref();
  });
  app.addHook("onClose", async () => clearInterval(timer));
}

/** Fastify's form of `config.trustProxy`: a hop count becomes "trust the nearest N hops". */
function trustProxyOption(trust: Config["trustProxy"]) {
  if (typeof trust !== "number") return trust;
  return (_address: string, hop: number) => hop < trust;
}
