import type { FastifyInstance, FastifyRequest } from "fastify";
import { createAuth } from "./auth/auth";
import { createGuards } from "./auth/guards";
import { SessionCache } from "./auth/session-cache";
import {
  createSessionReader,
  hasSessionCookie,
  stillSignedInSql,
  verifiedToken,
} from "./auth/session-reader";
import type { createRateLimiter } from "./auth/rate-limit";
import { loadAuthSecret } from "./auth/secret";
import { startChangeBus } from "./changes/bus";
import { createCartService } from "./cart/service";
import { createPlacementMemory } from "./checkout/memory";
import { createCheckout } from "./checkout/workflow";
import type { storeProductGate } from "./checkout/product-gate";
import { createCatalogService } from "./catalog/service";
import { createProductFitment } from "./catalog/fitment";
import { createPartPages } from "./catalog/part-pages";
import type { Config, OidcClient } from "./config";
import type { Database } from "./db/database";
import { storeOrigins } from "./http/cross-site";
import { createPaymentGateway } from "./payments/choose-gateway";
import { recordBounce } from "./email-bounces/service";
import { createAccountMail } from "./auth/mail";
import { mailboxRoutes } from "./mail/mailbox-routes";
import { startMailer } from "./mail/mailer";
import { createJobQueue } from "./jobs/queue";
import { createImportService } from "./imports/service";
import { createVatChecks } from "./companies/vat-checks";
import { createViesClient } from "./vies/client";
import { createRecurringJobs } from "./jobs/recurring";
import { createOrderMail } from "./orders/mail";
import { createBackorderDateMail } from "./orders/backorder-mail";
import { createInventory } from "./inventory/service";
import { gateMetrics, type StoreMetrics } from "./metrics/service";
import { createOrderService, withLines } from "./orders/service";
import { createPaymentService } from "./payments/service";
import { createReviewService } from "./reviews/service";
import { serveProductImages } from "./catalog/images";
import { createUserService } from "./users/service";
import { addStoreJobs } from "./store-jobs";
import { createAdminHomeService } from "./admin-home/service";
import { createLowStockMail } from "./admin-home/mail";
import { createLowStockEmailSettings } from "./admin-home/low-stock-settings";
import { membershipOf } from "./companies/membership";
import { createApprovalMail } from "./approvals/mail";
import { createApprovalService } from "./approvals/service";
import { CompanyPriceCache } from "./pricing/list-prices";
import { KeptRead } from "./changes/kept-read";
import { MarketCache } from "./pricing/market-cache";
import { createOrderLimits } from "./orders/limits";
import { DeliveryCountries } from "./pricing/delivery-countries";
import { readConsumerTaxRates } from "./tax/service";
import { createMarketService } from "./pricing/markets";
import { createRequestMarkets, marketQuery } from "./pricing/request-market";
import { createVehicleService } from "./vehicles/service";
import { createTermsMail } from "./terms/mail";
import { createTermsService } from "./terms/service";
import { createInvoiceService } from "./invoices/service";
import { createShipmentMail } from "./shipments/mail";
import { createShipmentService } from "./shipments/service";
import { createReturnPhotoService } from "./returns/photos";
import { createStorage } from "./storage/create";
import { createReturnService } from "./returns/service";
import { claimedByLine } from "./warranty/eligibility";
import { createWarrantyService } from "./warranty/service";
import { createWarrantyDeadlines } from "./warranty/deadline-reminders";
import { createIdempotencyKeys } from "./idempotency/service";
import { createWebhookSender } from "./webhooks/sender";
import { createWebhookService } from "./webhooks/service";
import { registerWebhookSubscriptions, WebhookSubscriptions } from "./webhooks/subscriptions";
import { createExpireHolds } from "./workflows/expire-holds";
import { createOrderStatus } from "./workflows/order-status";
import { createBackorderCancel } from "./workflows/cancel-backorder";
import { createRefunds } from "./workflows/refund";
import type { CatalogReadCache } from "./catalog/read-cache";
import type { ReplicaReads } from "./db/read-replica";

/** What buildApp made before the services: the platform every service and route is given. */
export interface Platform {
  config: Config;
  database: Database;
  publicUrl: string;
  oidc: OidcClient | undefined;
  /** Which origins are the store's own pages (cross-site.ts). */
  ownPages: { production: boolean; port: number };
  metrics: StoreMetrics;
  rateLimiter: ReturnType<typeof createRateLimiter>;
  catalogCache: CatalogReadCache;
  /** Where the public catalog's reads go: a read replica, or the primary (db/read-replica.ts). */
  replica: ReplicaReads;
  productGate: ReturnType<typeof storeProductGate>;
  isDraining: () => boolean;
}

/**
 * The store's services, made once per app: mail and the job queue, sign-in and sessions, the
 * change bus and the caches it clears, every domain's service and workflow, and the recurring
 * jobs. Routes get them through `registerDomains` (domains.ts).
 */
export async function assembleStore(app: FastifyInstance, platform: Platform) {
  const { config, database, publicUrl, oidc, ownPages, metrics, catalogCache, productGate } =
    platform;
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
  // EU VAT numbers checked against VIES when recorded and re-checked monthly (docs/tax.md "VIES").
  const vatChecks = createVatChecks(database.db, {
    vies: config.vies && createViesClient(config.vies),
    queue: jobs,
    log: app.log,
  });
  jobs.alongside(recurring.starter);
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
  // Its reads inside `replica.run` (the public catalog's routes) may go to a read replica.
  const catalog = createCatalogService(platform.replica.db);
  const fitment = createProductFitment(database.db);
  // Public part pages and the sitemap's part addresses (docs/catalog.md "Part pages").
  const partPages = platform.replica.readers((db) => createPartPages(db, config.currency));
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
  // `catalog` too: which products a group's rules name follows the catalog (list-prices.ts).
  changes.subscribe(["prices", "catalog"], companyPrices);
  changes.subscribe(["sessions"], sessions);
  // Markets kept in memory, cleared by NOTIFY `markets` (migration 0093), and the market each
  // request prices in (docs/pricing.md "The market chosen"; MARKET_CHOICE).
  const markets = createMarketService(database.db, { currency: config.currency });
  const marketCache = new MarketCache(() => markets.list(true));
  changes.subscribe(["markets"], marketCache);
  // The catalog's answers priced in a market go with it (their totals stay).
  changes.subscribe(["markets"], { invalidate: () => catalogCache.invalidate("stock") });
  // The countries' own tax rates a VAT-inclusive market's consumers see, and each customer's
  // default delivery country, kept in memory too (cleared by NOTIFY `markets` and
  // `addresses:<user id>`, migration 0095): a warm request reads nothing to choose its market.
  const consumerRates = new KeptRead(() => readConsumerTaxRates(database.db));
  changes.subscribe(["markets"], consumerRates);
  const deliveryCountries = new DeliveryCountries(database.db);
  changes.subscribe(["addresses"], deliveryCountries);
  const requestMarkets = createRequestMarkets({
    cache: marketCache,
    choice: config.marketChoice,
    deliveryCountries,
    consumerRates,
  });
  if (requestMarkets.choice) {
    // `?market=` naming an active market is remembered in the `market` cookie, on every page.
    // A request naming none (most) passes on at once, without a promise.
    app.addHook("onSend", (req, reply, payload, done) => {
      if (marketQuery(req.url) === null) return done(null, payload);
      requestMarkets.cookieFor(req).then((cookie) => {
        if (cookie) {
          const set = reply.getHeader("set-cookie");
          const cookies =
            set === undefined ? [] : Array.isArray(set) ? set.map(String) : [String(set)];
          reply.header("set-cookie", [...cookies, cookie]);
        }
        done(null, payload);
      }, done);
    });
  }
  app.addHook("onClose", () => changes.stop());
  // Outgoing webhooks (docs/webhooks.md): the event types some endpoint wants, kept in memory so
  // an event nobody wants costs nothing; the sender, woken at the commit of every delivery.
  const webhookSubscriptions = new WebhookSubscriptions(database.db);
  const forgetWebhookSubscriptions = registerWebhookSubscriptions(
    database.db,
    webhookSubscriptions,
  );
  changes.subscribe(["webhooks"], webhookSubscriptions);
  const webhookSender = createWebhookSender(database.db, {
    allowPrivateAddresses: config.webhooks.allowPrivateAddresses,
    mailer,
    publicUrl,
    log: app.log,
  });
  changes.subscribe(["webhook-outbox"], { invalidate: () => webhookSender.wake() });
  const webhooks = createWebhookService(database.db, {
    allowPrivateAddresses: config.webhooks.allowPrivateAddresses,
    endpointsChanged: () => webhookSubscriptions.invalidate(),
    deliveriesQueued: () => webhookSender.wake(),
  });
  app.addHook("onReady", async () => webhookSender.start());
  app.addHook("preClose", async () => {
    forgetWebhookSubscriptions();
    await webhookSender.stop();
  });
  // Stock moved in this process (an order took it, a cancellation gave it back): the cached
  // answers go as soon as the move commits, so the writer's next read sees it; other processes
  // hear it through NOTIFY.
  const inventory = createInventory(database.db, () => catalogCache.invalidate("stock"));
  // The store's files: under DATA_DIR or in the bucket (docs/storage.md).
  const storage = await createStorage(config.storage, config.dataDir, (m) => app.log.warn(m));
  app.addHook("onClose", async () => storage.close());
  // Catalog data imports (docs/imports.md): their files in the storage, their job's queue set
  // up with the others.
  const imports = createImportService(database.db, {
    storage,
    limits: config.imports,
    queue: jobs,
    catalogChanged: () => catalogCache.invalidate("catalog"),
    log: app.log,
  });
  await serveProductImages(app, storage, config.dataDir);
  const returnPhotos = createReturnPhotoService(database.db, storage);
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
  // The order limits an admin saves, or the environment's until then (docs/ordering.md "Holds that
  // cannot be abused"): kept in memory, cleared by NOTIFY `order-limits` (migration 0098).
  const orderLimits = createOrderLimits(database.db, {
    holdMs: config.orderHoldMs,
    limits: config.holdLimits,
    quickOrderPerMinute: config.quickOrderPerMinute,
    holdWarningMs: config.holdWarningMs,
  });
  changes.subscribe(["order-limits"], orderLimits.rules);
  const checkout = createCheckout(inventory, {
    currency: config.currency,
    sellerCountry: config.storeCountry,
    rules: orderLimits.rules,
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
    // A quote is delivered within its own market (docs/quotes.md "In the buyer's market").
    markets: { choice: config.marketChoice, all: () => marketCache.all() },
  });
  const approvals = createApprovalService(database.db, inventory, {
    rules: orderLimits.rules,
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
    claimedByLine,
  });
  // Warranty claims of shipped lines (docs/warranty.md).
  const warranty = createWarrantyService(database.db, {
    mailer,
    publicUrl,
    storage,
  });
  // Their deadlines and reminders, as an admin sets them (docs/warranty.md).
  const warrantyDeadlines = createWarrantyDeadlines(database.db, { mailer, publicUrl });
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
  // A paid line's units on backorder cancelled by its buyer or an admin (docs/inventory.md).
  const backorderCancel = createBackorderCancel({ inventory, refunds, mailer, publicUrl });
  const expireHolds = createExpireHolds(inventory, orderMail, payments);
  // Partial shipment of an order's lines (docs/shipments.md).
  const shipments = createShipmentService(database.db, {
    toOrder: async (tx, row) => (await withLines(tx, [row]))[0]!,
    notify: createShipmentMail(mailer, publicUrl),
  });
  // Idempotency-Keys of the placing and paying routes (docs/idempotency.md), swept hourly.
  const idempotency = createIdempotencyKeys(database.db);
  // The daily low-stock email as an admin sets it on Today, the environment's until then.
  const lowStockEmail = createLowStockEmailSettings(database.db, config.lowStockEmail);
  const adminHome = createAdminHomeService(database.db, {
    holdWarningMs: async () => (await orderLimits.rules.get()).holdWarningMs,
    lowStockMail: createLowStockMail(mailer, publicUrl),
    lowStockEmail,
  });
  addStoreJobs(
    recurring,
    {
      warnExpiring: async () => orders.warnExpiring((await orderLimits.rules.get()).holdWarningMs),
      cancelExpired: async () => {
        const n = await expireHolds();
        metrics.holdsExpired.inc(n);
        return n;
      },
      refunds,
      payments,
      terms,
      approvals,
      warrantyDeadlines,
      adminHome,
      imports,
      idempotency,
      webhooks,
      vatChecks,
      // Buyers whose backordered parts' dates moved, emailed each minute (docs/inventory.md).
      backorderDates: createBackorderDateMail(database.db, mailer, publicUrl),
      db: database.db,
    },
    config,
    app.log,
  );
  app.addHook("onReady", async () => recurring.start());
  // Started once every service has added its queues and workers (the imports' come late): one
  // added after the start would never run here (`createJobQueue` refuses it).
  jobs.start();
  return {
    ...platform,
    auth,
    authSecret,
    sessionRules,
    sessions,
    guards,
    mailer,
    invoices,
    catalog,
    fitment,
    partPages,
    vehicles,
    companyPrices,
    markets,
    marketCache,
    consumerRates,
    deliveryCountries,
    requestMarkets,
    /**
     * The customer whose default delivery country a request's market may follow (docs/pricing.md
     * "The market chosen"): the signed-in caller, from the session cache; none for an admin.
     */
    marketCustomerOf: async (req: FastifyRequest): Promise<string | undefined> => {
      if (!requestMarkets.choice || !hasSessionCookie(req.headers.cookie)) return undefined;
      const me = await sessions.reader(req.headers.cookie);
      return me && me.role !== "admin" ? me.id : undefined;
    },
    inventory,
    storage,
    returnPhotos,
    reviews,
    users,
    orders,
    orderLimits,
    terms,
    checkout,
    approvals,
    cart,
    payment,
    payments,
    returns,
    warranty,
    warrantyDeadlines,
    refunds,
    orderStatus,
    backorderCancel,
    shipments,
    adminHome,
    lowStockEmail,
    imports,
    idempotency,
    webhooks,
    webhookSender,
    vatChecks,
  };
}

/** Everything routes are given: the platform and the services. */
export type Store = Awaited<ReturnType<typeof assembleStore>>;
