import fs from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
  type RouteOptions,
} from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { SocialProvider } from "../contract/site-config";
import { createAuth } from "./auth/auth";
import { createGuards } from "./auth/guards";
import { SessionCache } from "./auth/session-cache";
import {
  createAgedSessionEnder,
  createSessionReader,
  stillSignedInSql,
  verifiedToken,
} from "./auth/session-reader";
import { createRateLimiter } from "./auth/rate-limit";
import { rateLimitCleanupJob } from "./auth/rate-limit-cleanup-job";
import { authRoutes } from "./auth/routes";
import { loadAuthSecret } from "./auth/secret";
import { listenForCatalogChanges } from "./catalog/catalog-changes";
import { CatalogReadCache } from "./catalog/read-cache";
import { cartRoutes } from "./cart/routes";
import { createCartService } from "./cart/service";
import { checkoutRoutes } from "./checkout/routes";
import { createPlacementMemory } from "./checkout/memory";
import { createCheckout } from "./checkout/workflow";
import { createProductGate } from "./checkout/product-gate";
import { answeredFromCache, catalogRoutes } from "./catalog/routes";
import { createCatalogService } from "./catalog/service";
import { productCsvRoutes } from "./product-csv/routes";
import { createProductCsvService } from "./product-csv/service";
import { quickOrderRoutes } from "./quick-order/routes";
import { reorderRoutes } from "./reorder/routes";
import { createReorderService } from "./reorder/service";
import { listRoutes } from "./lists/routes";
import { createListService } from "./lists/service";
import { createQuickOrderService } from "./quick-order/service";
import type { Config, OidcClient } from "./config";
import type { Database } from "./db/database";
import { errorHandler } from "./error-handler";
import { applyRequestTimeout } from "./request-deadline";
import { eventLoopLag, refusalLog, shedOverload, wasShed } from "./overload";
import { requireCanonicalPath } from "./canonical-path";
import { addSecurityHeaders, securityHeaders } from "./security-headers";
import { trackConnections } from "./drain";
import { databaseAnswers, healthRoutes } from "./health/routes";
import { limitJsonNesting } from "./json-body";
import { createLogger, requestIdGenerator, requestLogger, scrub } from "./logging";
import { API_DOCS_PREFIX, openApiOptions } from "./openapi";
import { recordBounce } from "./email-bounces/service";
import { createAccountMail } from "./mail/account-mail";
import { mailboxRoutes } from "./mail/mailbox-routes";
import { startMailer } from "./mail/mailer";
import { createOrderMail } from "./mail/order-mail";
import { holdSweeperJob } from "./orders/hold-sweeper";
import { notificationRoutes } from "./notifications/routes";
import { sessionRoutes } from "./sessions/routes";
import { createSessionService } from "./sessions/service";
import { createNotificationService } from "./notifications/service";
import { createInventory } from "./inventory/service";
import { metricsRoutes } from "./metrics/routes";
import { createMetrics, gateMetrics } from "./metrics/service";
import { orderRoutes } from "./orders/routes";
import { createOrderService, withLines } from "./orders/service";
import { paymentRoutes, type PaymentRoutesOptions } from "./payments/routes";
import { createPaymentService } from "./payments/service";
import { createStripeGateway } from "./payments/stripe-gateway";
import { createTestCardGateway } from "./payments/test-card-gateway";
import { reviewRoutes } from "./reviews/routes";
import { createReviewService } from "./reviews/service";
import { siteConfigRoutes } from "./site-config/routes";
import { userRoutes } from "./users/routes";
import { auditRoutes } from "./audit/routes";
import { createUserService } from "./users/service";
import { registerWebApp } from "./web-app";
import { fitmentRoutes } from "./fitment/routes";
import { addressRoutes } from "./addresses/routes";
import { createAddressService } from "./addresses/service";
import { shippingRoutes } from "./shipping/routes";
import { createShippingService } from "./shipping/service";
import { adminHomeRoutes } from "./admin-home/routes";
import { createAdminHomeService } from "./admin-home/service";
import { coreChargeRoutes } from "./core-charges/routes";
import { createCoreChargeService } from "./core-charges/service";
import { createLowStockMail } from "./admin-home/low-stock-mail";
import { lowStockEmailJob } from "./admin-home/low-stock-job";
import { taxRoutes } from "./tax/routes";
import { createCompanyTaxService } from "./tax/company-tax";
import { createTaxService } from "./tax/service";
import { companyAddressRoutes } from "./companies/address-routes";
import { createCompanyAddressService } from "./companies/addresses";
import { companyRoutes } from "./companies/routes";
import { createCompanyService } from "./companies/service";
import { createApprovalMail } from "./approvals/mail";
import { approvalRoutes } from "./approvals/routes";
import { createApprovalService } from "./approvals/service";
import { quoteRoutes } from "./quotes/routes";
import { createQuoteService } from "./quotes/service";
import { createPriceListService } from "./pricing/price-lists";
import { pricingRoutes } from "./pricing/routes";
import { CompanyPriceCache, listPricesFor } from "./pricing/list-prices";
import { createFitmentService } from "./fitment/service";
import { invoiceRoutes } from "./invoices/routes";
import { createAccountMail as createNetTermsMail } from "./terms/mail";
import { invoiceReminderJob, REMINDER_EVERY_MS } from "./terms/reminder-job";
import { termsRoutes } from "./terms/routes";
import { createTermsService } from "./terms/service";
import { createInvoiceService } from "./invoices/service";
import { returnRoutes } from "./returns/routes";
import { createShipmentMail } from "./mail/shipment-mail";
import { shipmentRoutes } from "./shipments/routes";
import { createShipmentService } from "./shipments/service";
import { createReturnPhotoService } from "./returns/photos";
import { createReturnService } from "./returns/service";

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
  applyRequestTimeout(app, config.requestTimeoutMs);
  // How a shutdown drains without resetting kept-alive connections (drain.ts).
  const { isDraining } = trackConnections(app);
  if (deps.onRoute) app.addHook("onRoute", deps.onRoute);
  logResponses(app);
  requireCanonicalPath(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  limitJsonNesting(app);

  addSecurityHeaders(
    app,
    securityHeaders({ production: config.env === "production", stripe: Boolean(config.stripe) }),
  );

  await app.register(swagger, openApiOptions(publicUrl));
  // The app-wide CSP (security-headers.ts) covers the docs too: Swagger UI needs no inline script.
  // Public by default outside production; in production only when API_DOCS=true (it lists every
  // admin route and its rules).
  if (config.apiDocs) await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX });

  app.addHook("onRequest", refuseCrossSiteWrites(publicUrl));
  const metrics = createMetrics(app, database.pool);
  // Before any route is registered, so that every API route has it (overload.ts).
  // The catalog's read cache: made here, as the shedding lets what it answers from memory pass.
  const catalogCache = new CatalogReadCache(2000, config.catalogCache);
  catalogCache.onLookup = (hit) =>
    metrics.catalogCacheLookups.inc({ result: hit ? "hit" : "miss" });
  // At most ORDER_GATE_PER_PRODUCT placements of one product hold a pooled connection at once;
  // the others queue here, holding none, for at most what they would have waited for a pooled
  // connection (docs/hot-row.md).
  const logGateRefusal = refusalLog(
    app.log,
    "overloaded: refusing orders of a product (503) whose gate already queues DB_QUEUE_MAX placements, or would not let them in within DB_CONNECT_TIMEOUT_SECONDS",
  );
  const productGate = createProductGate({
    perProduct: config.orderGatePerProduct,
    waitMs: config.databaseTimeouts.connectMs,
    queueMax: config.dbQueueMax,
    onShed: () => {
      metrics.requestsShed.inc();
      logGateRefusal();
    },
  });
  const loopLag = eventLoopLag();
  app.addHook("onClose", () => loopLag.stop());
  shedOverload(app, {
    // Queries queued for a pooled connection. Placements queued at a product's gate hold none
    // and are bounded there (a rush on one product must not refuse everyone else's requests).
    pool: database.pool,
    queueMax: config.dbQueueMax,
    // As many as the pool serves at once plus the queue it may have: a burst arriving at once.
    inFlightMax: database.pool.options.max + config.dbQueueMax,
    // The lists carry a signed-in customer's own prices (listPricesFor, below).
    answeredFromMemory: (req) => answeredFromCache(catalogCache, req, true),
    lag: { current: loopLag.current, maxMs: config.eventLoopLagMaxMs },
    onShed: () => metrics.requestsShed.inc(),
    log: app.log,
  });
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });

  // Mail: SMTP_URL, else (in the demo only) a local SMTP server whose messages /dev/mailbox
  // shows. Queued in PostgreSQL (pg-boss) and sent by a worker; stopped when the app closes.
  const localSmtp =
    config.mail.smtpUrl || !config.demo
      ? undefined
      : // Imported only here: the SMTP server and mail parser never run in production.
        await (await import("./mail/local-smtp")).startLocalSmtpServer();
  // The hold sweeper runs on the same queue; it needs the order service, made further down.
  const sweeperJobs: NonNullable<Parameters<typeof startMailer>[0]["jobs"]> = [];
  let startJobs: () => void = () => {};
  const jobsReady = new Promise<void>((resolve) => (startJobs = resolve));
  let closing = false;
  // Invoices are issued by payments and attached to the payment email (made when it is sent).
  const invoices = createInvoiceService(database.db, { seller: config.seller });
  const mailer = startMailer({
    // pg-boss stays off a transaction pooler: it is given PostgreSQL itself.
    databaseUrl: database.directUrl,
    smtpUrl: config.mail.smtpUrl ?? localSmtp?.url,
    from: config.mail.from,
    retryDelaySeconds: config.mail.retryDelaySeconds,
    retryLimit: config.mail.retryLimit,
    jobs: [
      async (boss) => {
        await jobsReady;
        if (closing) return [];
        return (await Promise.all(sweeperJobs.map((job) => job(boss)))).flat();
      },
    ],
    log: app.log,
    attachment: async (ref) => {
      const { filename, bytes } = await invoices.pdfById(ref.id);
      return { filename, contentType: "application/pdf", content: Buffer.from(bytes) };
    },
    onQueued: () => metrics.emailsQueued.inc(),
    onSendFailed: () => metrics.emailsFailed.inc(),
    // A permanent refusal marks the address as bouncing (the admin sees it on the customer).
    onBounce: (to, refusal) => recordBounce(database.db, to, refusal),
  });
  app.addHook("onClose", async () => {
    // A closing app starts no jobs (and lets a waiting start end, so stop() need not wait).
    closing = true;
    startJobs();
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
  app.decorateRequest("user", null);
  const readSession = createSessionReader(database.pool, authSecret, {
    production: config.env === "production",
    absoluteSeconds: config.sessionAbsoluteSeconds,
  });
  // Callers kept in memory: the catalog list's (its company prices) and the placing routes'
  // (auth/session-cache.ts), cleared by the catalog channel's listener (below).
  const sessions = new SessionCache(
    (cookie) => verifiedToken(cookie, authSecret, config.env === "production"),
    readSession,
    {
      stillSignedIn: (token, userId) =>
        stillSignedInSql(token, userId, config.sessionAbsoluteSeconds),
    },
  );
  const guards = createGuards(readSession, {
    adminTwoFactorRequired: config.adminTwoFactorRequired,
    remembered: (cookie) => sessions.user(cookie),
  });
  const socialProviders: SocialProvider[] = [
    ...(config.google ? [{ id: "google" as const, label: "Google" }] : []),
    ...(config.github ? [{ id: "github" as const, label: "GitHub" }] : []),
    ...(oidc ? [{ id: "oidc" as const, label: oidc.label }] : []),
  ];
  const catalog = createCatalogService(database.db);
  const fitment = createFitmentService(database.db);
  // Company buyers' price lists, kept in memory for the catalog list's overlay and cleared by the
  // same listener (docs/company-prices-on-lists.md).
  const companyPrices = new CompanyPriceCache(database.db, config.currency);
  const catalogChanges = listenForCatalogChanges(
    database.directUrl,
    {
      onChange: (change) => {
        if (change === "prices") return companyPrices.invalidate();
        if (change === "sessions") return sessions.invalidate();
        catalogCache.invalidate(change);
        if (change === "catalog") catalog.catalogChanged();
      },
      onListening: (listening) => {
        catalogCache.setListening(listening);
        companyPrices.setListening(listening);
        sessions.setListening(listening);
      },
    },
    app.log,
    {
      notify: (channel, payload) =>
        database.pool.query("select pg_notify($1, $2)", [channel, payload]),
      pingMs: config.catalogPingMs,
    },
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
  // Customers' photos of their returns: private, served only through the API (docs/returns.md).
  const returnPhotosDir = path.join(config.dataDir, "return-photos");
  await fs.mkdir(returnPhotosDir, { recursive: true });
  const returnPhotos = createReturnPhotoService(database.db, returnPhotosDir);
  const reviews = createReviewService(database.db);
  const users = createUserService(database.db, inventory);
  const orderMail = createOrderMail(mailer, publicUrl);
  const orders = createOrderService(database.db, inventory, {
    currency: config.currency,
    notify: orderMail,
  });
  const approvalMail = createApprovalMail(mailer, publicUrl);
  // Net terms: orders on account are invoiced at once (docs/net-terms.md).
  const accountMail = createNetTermsMail(mailer, publicUrl);
  const terms = createTermsService(database.db, { mail: accountMail });
  gateMetrics(metrics.registry, productGate);
  const checkout = createCheckout(inventory, {
    currency: config.currency,
    sellerCountry: config.storeCountry,
    holdMs: config.orderHoldMs,
    limits: config.holdLimits,
    notify: orderMail,
    approvalMail,
    invoices,
    accountMail,
    // Off (0) by default until its queues and the overload shedding agree (docs/hot-row.md).
    gate: config.orderGatePerProduct > 0 ? { products: productGate, db: database.db } : undefined,
    // Orders decided from what this process read and wrote before, checked by the write
    // (docs/decisions/011-checkout-workflow.md, "Decided from memory").
    memory: config.placementMemory ? createPlacementMemory() : undefined,
  });
  const approvals = createApprovalService(database.db, inventory, {
    holdMs: config.orderHoldMs,
    limits: config.holdLimits,
    mail: approvalMail,
    invoices,
    accountMail,
  });
  const cart = createCartService(database.db, {
    currency: config.currency,
    sellerCountry: config.storeCountry,
  });
  const payment = await createPaymentGateway(config, database, app.log);
  const payments = createPaymentService(
    database.db,
    inventory,
    payment.gateway,
    app.log,
    orderMail,
    invoices,
    { mailer, publicUrl },
  );
  // Returns: refunds through the gateway that took the payment, credit notes (docs/returns.md).
  const returns = createReturnService(database.db, inventory, payment.gateway, {
    windowDays: config.returnWindowDays,
    coreWindowDays: config.coreReturnWindowDays,
    seller: config.seller,
    mailer,
    publicUrl,
    log: app.log,
  });
  // Partial shipment of an order's lines (docs/partial-shipment.md).
  const shipments = createShipmentService(database.db, {
    toOrder: async (tx, row) => (await withLines(tx, [row]))[0]!,
    notify: createShipmentMail(mailer, publicUrl),
  });
  // The hold sweeper: a pg-boss job, one run at a time across every process (hold-sweeper.ts).
  sweeperJobs.push(
    holdSweeperJob(
      {
        warnExpiring: (warningMs) => orders.warnExpiring(warningMs),
        cancelExpired: async () => {
          const n = await orders.cancelExpired();
          metrics.holdsExpired.inc(n);
          return n;
        },
      },
      {
        everyMs: config.holdSweepMs,
        warningMs: config.holdWarningMs,
        log: app.log,
      },
    ),
  );
  // The invoice reminders (net terms), on the same queue.
  sweeperJobs.push(invoiceReminderJob(terms, { everyMs: REMINDER_EVERY_MS, log: app.log }));
  // Rate-limit counters older than a day, forgotten hourly (auth/rate-limit-cleanup-job.ts).
  sweeperJobs.push(rateLimitCleanupJob(database.db, { log: app.log }));
  // The admin home, and its daily low-stock email to admins (docs/admin-home.md).
  const adminHome = createAdminHomeService(database.db, {
    holdWarningMs: config.holdWarningMs,
    lowStockMail: createLowStockMail(mailer, publicUrl),
  });
  if (config.lowStockEmail.enabled) {
    sweeperJobs.push(
      lowStockEmailJob(adminHome, { hourUtc: config.lowStockEmail.hourUtc, log: app.log }),
    );
  }
  app.addHook("onReady", async () => startJobs());

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database, isDraining });
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
        endAgedSession: createAgedSessionEnder(database.pool, authSecret, {
          production: config.env === "production",
          absoluteSeconds: config.sessionAbsoluteSeconds,
        }),
      });
      await api.register(userRoutes, { users, payments, guards });
      await api.register(orderRoutes, { orders, payments, returns, guards });
      await api.register(returnRoutes, { returns, photos: returnPhotos, guards });
      await api.register(shipmentRoutes, { shipments, guards });
      await api.register(invoiceRoutes, { invoices, guards });
      await api.register(termsRoutes, { terms, guards });
      await api.register(cartRoutes, { cart, guards });
      await api.register(checkoutRoutes, { checkout, guards });
      await api.register(addressRoutes, {
        addresses: createAddressService(database.db),
        guards,
      });
      await api.register(shippingRoutes, {
        shipping: createShippingService(database.db),
        guards,
      });
      await api.register(taxRoutes, {
        tax: createTaxService(database.db),
        companyTax: createCompanyTaxService(database.db),
        guards,
      });
      await api.register(adminHomeRoutes, { home: adminHome, guards });
      await api.register(coreChargeRoutes, {
        coreCharges: createCoreChargeService(database.db, { currency: config.currency }),
        guards,
      });
      await api.register(paymentRoutes, {
        payments,
        guards,
        rateLimiter: createRateLimiter(database.db),
        ...payment.routes,
      });
      await api.register(catalogRoutes, {
        catalog,
        fitment,
        catalogCache,
        guards,
        uploadsDir,
        requestTimeoutMs: config.requestTimeoutMs,
        listPrices: (customerId, items, known) =>
          listPricesFor(companyPrices, customerId, config.currency, items, known),
        listCaller: (req) => sessions.user(req.headers.cookie),
      });
      await api.register(reviewRoutes, {
        reviews,
        guards,
        rateLimiter: createRateLimiter(database.db),
      });
      await api.register(fitmentRoutes, { fitment, catalog, catalogCache, guards });
      await api.register(productCsvRoutes, {
        productCsv: createProductCsvService(database.db, app.log),
        guards,
      });
      await api.register(notificationRoutes, {
        notifications: createNotificationService(database.db),
        guards,
      });
      await api.register(auditRoutes, { db: database.db, guards });
      await api.register(pricingRoutes, {
        priceLists: createPriceListService(database.db, { currency: config.currency }),
        guards,
        db: database.db,
        currency: config.currency,
        pricesChanged: () => companyPrices.invalidate(),
      });
      await api.register(companyRoutes, {
        companies: createCompanyService(database.db, { mailer, publicUrl }),
        guards,
        pricesChanged: () => companyPrices.invalidate(),
      });
      await api.register(companyAddressRoutes, {
        companyAddresses: createCompanyAddressService(database.db),
        guards,
      });
      await api.register(approvalRoutes, { approvals, guards });
      await api.register(quoteRoutes, {
        quotes: createQuoteService(database.db, {
          currency: config.currency,
          mailer,
          publicUrl,
        }),
        checkout,
        guards,
      });
      await api.register(quickOrderRoutes, {
        quickOrder: createQuickOrderService(database.db, cart, { currency: config.currency }),
        guards,
      });
      await api.register(reorderRoutes, {
        reorder: createReorderService(database.db, cart, { currency: config.currency }),
        guards,
      });
      await api.register(listRoutes, {
        lists: createListService(database.db, cart, { currency: config.currency }),
        guards,
      });
      await api.register(sessionRoutes, {
        sessions: createSessionService(database.db, {
          absoluteSeconds: config.sessionAbsoluteSeconds,
        }),
        guards,
      });
    },
    { prefix: "/api" },
  );

  await registerWebApp(app, {
    webDistDir: config.webDistDir,
    publicUrl,
    currency: config.currency,
    structuredDataWaitMs: config.pageDataWaitMs,
    newestProducts: (limit) => catalog.page({ sort: "newest", limit, offset: 0 }),
    cachedList: (url) => {
      const answer = catalogCache.answerFor(url);
      return answer?.total === undefined
        ? undefined
        : { body: answer.response.body, total: answer.total };
    },
  });
  return app;
}

/**
 * A state-changing request must come from our own pages: a browser always sends Origin on such
 * requests, so a foreign Origin means another site is making the visitor's browser call us.
 * Every path, not only /api (the path is canonical by now: canonical-path.ts), and only the
 * store's own origin (PUBLIC_URL), never whatever the request's Host header names.
 */
function refuseCrossSiteWrites(publicUrl: string) {
  const ours = new URL(publicUrl).origin;
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return done();
    const origin = req.headers.origin;
    const crossSite = origin
      ? origin !== ours
      : req.headers["sec-fetch-site"] === "cross-site" ||
        req.headers["sec-fetch-site"] === "same-site";
    // Answered here: the request goes no further (done is not called).
    if (crossSite) {
      reply
        .code(403)
        .send({ error: "cross_site", message: "Cross-site requests are not accepted" });
      return;
    }
    done();
  };
}

/** Stripe when it is configured, else the built-in test-card gateway; start-up says which. */
async function createPaymentGateway(config: Config, database: Database, log: FastifyBaseLogger) {
  if (config.stripe) {
    log.info("payments: the Stripe gateway is live");
    // Loaded only when configured (about 0.2 s and 18 MiB of start-up otherwise).
    const { default: Stripe } = await import("stripe");
    const client = new Stripe(config.stripe.secretKey);
    const routes: Partial<PaymentRoutesOptions> = config.stripe.webhookSecret
      ? { stripeWebhook: { client, secret: config.stripe.webhookSecret } }
      : {};
    return { gateway: createStripeGateway(client), routes };
  }
  if (config.env === "production") {
    log.warn(
      "payments: TEST CARDS ONLY (PAYMENTS_GATEWAY=test-card): no money is taken, and every order paid so is marked TEST",
    );
  } else {
    log.info("payments: the test-card gateway is live (no money is taken; orders marked TEST)");
  }
  const testCard = createTestCardGateway(database.db);
  return { gateway: testCard, routes: { testCard } };
}

/** Fastify's form of `config.trustProxy`: a hop count becomes "trust the nearest N hops". */
function trustProxyOption(trust: Config["trustProxy"]) {
  if (typeof trust !== "number") return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * Each request's id goes back as `X-Request-Id`. A request that failed (4xx, 5xx) or took over a
 * second is logged as one `info` line; the others at `debug` only (nginx's access log has every
 * request, under the same id): a line per request halved catalog throughput here.
 */
function logResponses(app: FastifyInstance) {
  const SLOW_MS = 1000;
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("x-request-id", req.id);
    done();
  });
  app.addHook("onResponse", (req, reply, done) => {
    // Refusals for overload are logged once a second by overload.ts, not each.
    if (wasShed(req)) return done();
    const notable = reply.statusCode >= 400 || reply.elapsedTime > SLOW_MS;
    if (!notable && req.log.level !== "debug" && req.log.level !== "trace") return done();
    req.log[notable ? "info" : "debug"](
      {
        req: { method: req.method, url: scrub(req.url), remoteAddress: req.ip },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request completed",
    );
    done();
  });
}
