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
import { authRoutes } from "./auth/routes";
import { loadAuthSecret } from "./auth/secret";
import { startChangeBus } from "./changes/bus";
import { CatalogReadCache } from "./catalog/read-cache";
import { cartRoutes } from "./cart/routes";
import { createCartService } from "./cart/service";
import { checkoutRoutes } from "./checkout/routes";
import { createPlacementMemory } from "./checkout/memory";
import { createCheckout } from "./checkout/workflow";
import { storeProductGate } from "./checkout/product-gate";
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
import { shedStoreOverload } from "./overload";
import { requireCanonicalPath } from "./canonical-path";
import { addSecurityHeaders, securityHeaders } from "./security-headers";
import { trackConnections } from "./drain";
import { databaseAnswers, healthRoutes } from "./health/routes";
import { limitJsonNesting } from "./json-body";
import {
  createLogger,
  logResponses,
  requestIdGenerator,
  requestLogger,
  trustProxyOption,
} from "./logging";
import { refuseCrossSiteWrites, storeOrigins } from "./http/cross-site";
import { createPaymentGateway } from "./payments/choose-gateway";
import { API_DOCS_PREFIX, openApiOptions } from "./openapi";
import { recordBounce } from "./email-bounces/service";
import { createAccountMail } from "./auth/mail";
import { mailboxRoutes } from "./mail/mailbox-routes";
import { startMailer } from "./mail/mailer";
import { createJobQueue } from "./jobs/queue";
import { createRecurringJobs } from "./jobs/recurring";
import { createOrderMail } from "./orders/mail";
import { notificationRoutes } from "./notifications/routes";
import { sessionRoutes } from "./auth/session-routes";
import { createSessionService } from "./auth/sessions";
import { createNotificationService } from "./notifications/service";
import { createInventory } from "./inventory/service";
import { metricsRoutes } from "./metrics/routes";
import { createMetrics, gateMetrics } from "./metrics/service";
import { orderRoutes } from "./orders/routes";
import { createOrderService, withLines } from "./orders/service";
import { paymentRoutes } from "./payments/routes";
import { createPaymentService } from "./payments/service";
import { reviewRoutes } from "./reviews/routes";
import { createReviewService } from "./reviews/service";
import { siteConfigRoutes, socialProvidersOf } from "./site-config/routes";
import { contactRoutes } from "./site-config/contact";
import { serveProductImages } from "./catalog/images";
import { userRoutes } from "./users/routes";
import { auditRoutes } from "./audit/routes";
import { createUserService } from "./users/service";
import { createRemoveUser } from "./workflows/remove-user";
import { registerWebApp } from "./web-app";
import { addStoreJobs } from "./store-jobs";
import { vehicleRoutes } from "./vehicles/routes";
import { fitmentRoutes } from "./catalog/fitment-routes";
import { createProductFitment } from "./catalog/fitment";
import { addressRoutes } from "./addresses/routes";
import { createAddressService } from "./addresses/service";
import { shippingRoutes } from "./shipping/routes";
import { createShippingService } from "./shipping/service";
import { adminHomeRoutes } from "./admin-home/routes";
import { createAdminHomeService } from "./admin-home/service";
import { coreChargeRoutes } from "./core-charges/routes";
import { createCoreChargeService } from "./core-charges/service";
import { createLowStockMail } from "./admin-home/mail";
import { taxRoutes } from "./tax/routes";
import { createCompanyTaxService } from "./tax/company-tax";
import { createTaxService } from "./tax/service";
import { companyAddressRoutes } from "./companies/address-routes";
import { createCompanyAddressService } from "./companies/addresses";
import { companyRoutes } from "./companies/routes";
import { membershipOf } from "./companies/membership";
import { createCompanyService } from "./companies/service";
import { createApprovalMail } from "./approvals/mail";
import { approvalRoutes } from "./approvals/routes";
import { createApprovalService } from "./approvals/service";
import { quoteRoutes } from "./quotes/routes";
import { createQuoteService } from "./quotes/service";
import { createPriceListService } from "./pricing/price-lists";
import { pricingRoutes } from "./pricing/routes";
import { CompanyPriceCache, listPricesFor } from "./pricing/list-prices";
import { createVehicleService } from "./vehicles/service";
import { invoiceRoutes } from "./invoices/routes";
import { openInvoicesCents } from "./terms/account";
import { createTermsMail } from "./terms/mail";
import { termsRoutes } from "./terms/routes";
import { createTermsService } from "./terms/service";
import { createInvoiceService } from "./invoices/service";
import { returnRoutes } from "./returns/routes";
import { createShipmentMail } from "./shipments/mail";
import { shipmentRoutes } from "./shipments/routes";
import { createShipmentService } from "./shipments/service";
import { createReturnPhotoService, returnPhotoFolder } from "./returns/photos";
import { createReturnService } from "./returns/service";
import { createDeleteProduct } from "./workflows/delete-product";
import { createExpireHolds } from "./workflows/expire-holds";
import { createOrderStatus } from "./workflows/order-status";
import { createReceiveReturn } from "./workflows/receive-return";
import { createRefunds } from "./workflows/refund";
import { refundRoutes } from "./returns/refund-routes";

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
  // Placements of one product queue at its gate, holding no pooled connection (docs/hot-row.md).
  const productGate = storeProductGate(config, {
    log: app.log,
    onShed: () => metrics.requestsShed.inc(),
  });
  shedStoreOverload(app, config, {
    pool: database.pool,
    // The lists carry a signed-in customer's own prices (listPricesFor, below).
    answeredFromMemory: (req) => answeredFromCache(catalogCache, req, true),
    onShed: metrics.shed,
    headers: headers.api,
  });
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });

  // Mail: SMTP_URL, else (in the demo only) a local SMTP server whose messages /dev/mailbox
  // shows. Queued in PostgreSQL (pg-boss) and sent by a worker; stopped when the app closes.
  const localSmtp =
    config.mail.smtpUrl || !config.demo
      ? undefined
      : // Imported only here: the SMTP server and mail parser never run in production.
        await (await import("./mail/local-smtp")).startLocalSmtpServer();
  // The job queue (pg-boss in PostgreSQL): the mail outbox and the recurring jobs (hold sweeper,
  // reminders, clean-ups, added below), stopped when the app closes.
  // pg-boss stays off a transaction pooler: it is given PostgreSQL itself.
  const jobs = createJobQueue({ databaseUrl: database.directUrl, log: app.log });
  const recurring = createRecurringJobs();
  // Invoices are issued by payments and attached to the payment email (made when it is sent).
  const invoices = createInvoiceService(database.db, { seller: config.seller });
  const mailer = startMailer({
    queue: jobs,
    ...config.mail,
    smtpUrl: config.mail.smtpUrl ?? localSmtp?.url,
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
  jobs.alongside(recurring.starter);
  jobs.start();
  app.addHook("onClose", async () => {
    recurring.close();
    await jobs.stop();
    mailer.close();
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
    trustedOrigins: storeOrigins(publicUrl, ownPages),
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
  app.decorateRequest("company", undefined);
  const sessionRules = {
    production: config.env === "production",
    absoluteSeconds: config.sessionAbsoluteSeconds,
  };
  const readSession = createSessionReader(database.pool, authSecret, sessionRules);
  // Callers kept in memory: the catalog list's (its company prices) and the placing routes'
  // (auth/session-cache.ts), cleared through the change bus (below).
  const sessions = new SessionCache(
    (cookie) => verifiedToken(cookie, authSecret, config.env === "production"),
    readSession,
    {
      stillSignedIn: (token, userId) =>
        stillSignedInSql(token, userId, config.sessionAbsoluteSeconds),
    },
  );
  const guards = createGuards(readSession, (userId) => membershipOf(database.db, userId), {
    adminTwoFactorRequired: config.adminTwoFactorRequired,
    remembered: (cookie) => sessions.user(cookie),
  });
  const catalog = createCatalogService(database.db);
  const vehicles = createVehicleService(database.db);
  // Company buyers' price lists, kept in memory for the catalog list's overlay and cleared by the
  // same listener (docs/pricing.md).
  const companyPrices = new CompanyPriceCache(database.db, config.currency);
  const changes = startChangeBus(database.directUrl, app.log, {
    notify: (channel, payload) =>
      database.pool.query("select pg_notify($1, $2)", [channel, payload]),
    pingMs: config.catalogPingMs,
  });
  changes.subscribe(["stock", "catalog"], catalogCache);
  changes.subscribe(["catalog"], { invalidate: () => catalog.catalogChanged() });
  changes.subscribe(["prices"], companyPrices);
  changes.subscribe(["sessions"], sessions);
  app.addHook("onClose", () => changes.stop());
  // Stock moved in this process (an order took it, a cancellation gave it back): the cached
  // answers go as soon as the move commits, so the writer's next read sees it; other processes
  // hear it through NOTIFY.
  const inventory = createInventory(database.db, () => catalogCache.invalidate("stock"));
  const uploadsDir = await serveProductImages(app, config.dataDir);
  const returnPhotos = createReturnPhotoService(
    database.db,
    await returnPhotoFolder(config.dataDir),
  );
  const reviews = createReviewService(database.db);
  const users = createUserService(database.db);
  const orderMail = createOrderMail(mailer, publicUrl);
  const orders = createOrderService(database.db, inventory, {
    currency: config.currency,
    notify: orderMail,
  });
  const approvalMail = createApprovalMail(mailer, publicUrl);
  // Net terms: orders on account are invoiced at once (docs/terms.md).
  const accountMail = createTermsMail(mailer, publicUrl);
  const terms = createTermsService(database.db, { mail: accountMail });
  gateMetrics(metrics.registry, productGate);
  const checkout = createCheckout(inventory, {
    currency: config.currency,
    sellerCountry: config.storeCountry,
    holdMs: config.orderHoldMs,
    limits: config.holdLimits,
    // Until an admin saves approval settings (docs/approvals.md).
    approvalWindowBusinessDays: config.approvalDefaults.windowBusinessDays,
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
    defaults: config.approvalDefaults,
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
  const returns = createReturnService(database.db, {
    windowDays: config.returnWindowDays,
    coreWindowDays: config.coreReturnWindowDays,
    mailer,
    publicUrl,
    contact: config.contact,
  });
  // The refund engine, for received returns and paid orders the store cancels.
  const refunds = createRefunds(database.db, payment.gateway, {
    seller: config.seller,
    mailer,
    publicUrl,
    log: app.log,
  });
  const orderStatus = createOrderStatus({
    inventory,
    refunds,
    payments,
    orders,
    notify: orderMail,
  });
  const expireHolds = createExpireHolds(inventory, orderMail, payments);
  // Partial shipment of an order's lines (docs/shipments.md).
  const shipments = createShipmentService(database.db, {
    toOrder: async (tx, row) => (await withLines(tx, [row]))[0]!,
    notify: createShipmentMail(mailer, publicUrl),
  });
  const adminHome = createAdminHomeService(database.db, {
    holdWarningMs: config.holdWarningMs,
    lowStockMail: createLowStockMail(mailer, publicUrl),
  });
  addStoreJobs(
    recurring,
    {
      warnExpiring: (warningMs) => orders.warnExpiring(warningMs),
      cancelExpired: async () => {
        const n = await expireHolds();
        metrics.holdsExpired.inc(n);
        return n;
      },
      refunds,
      payments,
      terms,
      approvals,
      adminHome,
      db: database.db,
    },
    config,
    app.log,
  );
  app.addHook("onReady", async () => recurring.start());

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database, isDraining });
      await api.register(contactRoutes, { contact: config.contact });
      await api.register(siteConfigRoutes, {
        siteConfig: {
          currency: config.currency,
          socialProviders: socialProvidersOf(config, oidc),
          payments: {
            gateway: payment.gateway.name,
            publishableKey: config.stripe?.publishableKey,
          },
        },
      });
      await api.register(authRoutes, {
        auth,
        publicUrl,
        rateLimiter,
        limits: config.authRateLimit,
        databaseAnswers: () => databaseAnswers(database),
        endAgedSession: createAgedSessionEnder(database.pool, authSecret, sessionRules),
      });
      await api.register(userRoutes, {
        users,
        removeUser: createRemoveUser(inventory, payments),
        guards,
      });
      await api.register(orderRoutes, {
        orders,
        status: orderStatus,
        paymentsOf: (id) => payments.paymentsOf(id),
        confirmPaid: (id, transactionId, ownerId) =>
          payments.confirmPaid(id, transactionId, ownerId),
        guards,
      });
      await api.register(returnRoutes, {
        returns,
        receiving: createReceiveReturn(database.db, inventory, refunds),
        photos: returnPhotos,
        guards,
      });
      await api.register(refundRoutes, { refunds, guards });
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
        rateLimiter,
        ...payment.routes,
      });
      await api.register(catalogRoutes, {
        catalog,
        removeProduct: createDeleteProduct(database.db),
        vehicles,
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
        rateLimiter,
      });
      await api.register(vehicleRoutes, { vehicles, guards });
      await api.register(fitmentRoutes, {
        catalog,
        fitment: createProductFitment(database.db),
        vehicles,
        catalogCache,
        guards,
      });
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
        companies: createCompanyService(database.db, { mailer, publicUrl, openInvoicesCents }),
        guards,
        pricesChanged: () => companyPrices.invalidate(),
        rateLimiter,
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
        rateLimiter,
      });
      await api.register(quickOrderRoutes, {
        quickOrder: createQuickOrderService(database.db, cart, { currency: config.currency }),
        guards,
        rateLimiter,
        perMinute: config.quickOrderPerMinute,
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
