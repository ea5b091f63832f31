import { type FastifyInstance, type FastifyRequest } from "fastify";
import { createAgedSessionEnder } from "./auth/session-reader";
import { authRoutes } from "./auth/routes";
import { cartRoutes } from "./cart/routes";
import { checkoutRoutes } from "./checkout/routes";
import { catalogRoutes } from "./catalog/routes";
import { facetRoutes } from "./catalog/attributes/facet-routes";
import { createFacetService } from "./catalog/attributes/facets";
import { productCsvRoutes } from "./product-csv/routes";
import { importRoutes } from "./imports/routes";
import { createProductCsvService } from "./product-csv/service";
import { quickOrderRoutes } from "./quick-order/routes";
import { reorderRoutes } from "./reorder/routes";
import { createReorderService } from "./reorder/service";
import { listRoutes } from "./lists/routes";
import { createListService } from "./lists/service";
import { createQuickOrderService } from "./quick-order/service";
import { databaseAnswers, healthRoutes } from "./health/routes";
import { notificationRoutes } from "./notifications/routes";
import { sessionRoutes } from "./auth/session-routes";
import { createSessionService } from "./auth/sessions";
import { createNotificationService } from "./notifications/service";
import { orderRoutes } from "./orders/routes";
import { paymentRoutes } from "./payments/routes";
import { reviewRoutes } from "./reviews/routes";
import { siteConfigRoutes, socialProvidersOf } from "./site-config/routes";
import { contactRoutes } from "./site-config/contact";
import { userRoutes } from "./users/routes";
import { auditRoutes } from "./audit/routes";
import { createRemoveUser } from "./workflows/remove-user";
import { vehicleRoutes } from "./vehicles/routes";
import { vehicleAdminRoutes } from "./vehicles/admin-routes";
import { createVehicleAdmin } from "./vehicles/admin";
import { fitmentRowsNaming } from "./catalog/fitment";
import { orderLinesNaming } from "./orders/vehicle-references";
import { createVehicleCsv } from "./vehicles/csv-import";
import { fitmentRoutes } from "./catalog/fitment-routes";
import { attributeRoutes } from "./catalog/attributes/routes";
import { createAttributeService } from "./catalog/attributes/service";
import { partRoutes } from "./catalog/part-routes";
import { addressRoutes } from "./addresses/routes";
import { createAddressService } from "./addresses/service";
import { shippingRoutes } from "./shipping/routes";
import { createShippingService } from "./shipping/service";
import { locationRoutes } from "./inventory/location-routes";
import { createLocationService } from "./inventory/locations";
import { createSupplyService } from "./inventory/supply";
import { supplyRoutes } from "./inventory/supply-routes";
import { adminHomeRoutes } from "./admin-home/routes";
import { coreChargeRoutes } from "./core-charges/routes";
import { createCoreChargeService } from "./core-charges/service";
import { taxRoutes } from "./tax/routes";
import { createCompanyTaxService } from "./tax/company-tax";
import { createTaxService } from "./tax/service";
import { companyAddressRoutes } from "./companies/address-routes";
import { createCompanyAddressService } from "./companies/addresses";
import { companyRoutes } from "./companies/routes";
import { createCompanyService } from "./companies/service";
import { approvalRoutes } from "./approvals/routes";
import { quoteRoutes } from "./quotes/routes";
import { createQuoteService } from "./quotes/service";
import { createPriceListService } from "./pricing/price-lists";
import { pricingRoutes } from "./pricing/routes";
import { customerGroupRoutes } from "./pricing/group-routes";
import { createCustomerGroupService } from "./pricing/groups";
import { discountCodeRoutes } from "./pricing/discount-code-routes";
import { marketRoutes } from "./pricing/market-routes";
import { createDiscountCodeService } from "./pricing/discount-codes";
import { catalogMarketsOf, listPricesFor } from "./pricing/list-prices";
import type { PricingMarket } from "./pricing/pricing";
import { invoiceRoutes } from "./invoices/routes";
import { openInvoicesCents } from "./terms/account";
import { termsRoutes } from "./terms/routes";
import { returnRoutes } from "./returns/routes";
import { shipmentRoutes } from "./shipments/routes";
import { createDeleteProduct } from "./workflows/delete-product";
import { createReceiveReturn } from "./workflows/receive-return";
import { createClaimDecisions } from "./workflows/warranty-claims";
import { refundRoutes } from "./returns/refund-routes";
import { warrantyRoutes } from "./warranty/routes";
import { warrantyDeadlineRoutes } from "./warranty/deadline-routes";
import { warrantyReportRoutes } from "./warranty/report-routes";
import { keptReports, warrantyReport } from "./warranty/report";
import { lotRoutes } from "./shipments/lot-routes";
import { acceptApiKeys } from "./api-keys/bearer";
import { idempotentRoutes } from "./idempotency/idempotent-routes";
import { apiKeyRoutes } from "./api-keys/routes";
import { bulkRoutes } from "./bulk/routes";
import { createBulkSync } from "./bulk/service";
import { syncRoutes } from "./sync/routes";
import { createSyncService } from "./sync/service";
import { createApiKeyService } from "./api-keys/service";
import { webhookRoutes } from "./webhooks/routes";

import type { Store } from "./store-services";

/** Every domain's routes, under /api: one registration each, in the order they are matched. */
export async function registerDomains(api: FastifyInstance, store: Store): Promise<void> {
  // What several registrations share; a service only one takes is read from the store there.
  const {
    config,
    database,
    publicUrl,
    rateLimiter,
    catalogCache,
    guards,
    mailer,
    catalog,
    vehicles,
    companyPrices,
    inventory,
    checkout,
    cart,
    payment,
    payments,
    refunds,
  } = store;
  // `Authorization: Bearer <key>` on every route below, before each route's own hooks
  // (docs/api-keys.md); requests without it are not touched.
  const apiKeys = createApiKeyService(database.db);
  acceptApiKeys(api, { keys: apiKeys, guards });
  // `Idempotency-Key` on the routes that say `config: { idempotent: true }` (docs/idempotency.md).
  idempotentRoutes(api, {
    keys: store.idempotency,
    requestTimeoutMs: config.requestTimeoutMs,
    orderTimeoutMs: config.orderTimeoutMs,
  });
  await api.register(healthRoutes, { database, isDraining: store.isDraining });
  await api.register(contactRoutes, { contact: config.contact });
  await api.register(siteConfigRoutes, {
    siteConfig: {
      currency: config.currency,
      socialProviders: socialProvidersOf(config, store.oidc),
      payments: {
        gateway: payment.gateway.name,
        publishableKey: config.stripe?.publishableKey,
      },
      marketChoice: config.marketChoice,
      storeCountry: config.storeCountry,
    },
  });
  await api.register(authRoutes, {
    auth: store.auth,
    publicUrl,
    rateLimiter,
    limits: config.authRateLimit,
    databaseAnswers: () => databaseAnswers(database),
    endAgedSession: createAgedSessionEnder(database.pool, store.authSecret, store.sessionRules),
  });
  await api.register(userRoutes, {
    users: store.users,
    removeUser: createRemoveUser(inventory, payments),
    guards,
  });
  await api.register(orderRoutes, {
    orders: store.orders,
    status: store.orderStatus,
    cancelBackorder: (id, line, who) => store.backorderCancel.cancel(id, line, who),
    paymentsOf: (id) => payments.paymentsOf(id),
    confirmPaid: (id, transactionId, ownerId) => payments.confirmPaid(id, transactionId, ownerId),
    limits: store.orderLimits,
    guards,
  });
  // Warranty claims' decisions: the part back as a return, a replacement order, a refund.
  const claimDecisions = createClaimDecisions(inventory, refunds, {
    mailer,
    publicUrl,
    contact: config.contact,
  });
  await api.register(returnRoutes, {
    returns: store.returns,
    receiving: createReceiveReturn(database.db, inventory, refunds, {
      claimPartArrived: claimDecisions.partArrived,
    }),
    photos: store.returnPhotos,
    guards,
  });
  await api.register(refundRoutes, { refunds, guards });
  await api.register(warrantyRoutes, {
    warranty: store.warranty,
    decisions: claimDecisions,
    guards,
  });
  await api.register(warrantyDeadlineRoutes, { deadlines: store.warrantyDeadlines, guards });
  await api.register(warrantyReportRoutes, {
    report: keptReports((query, lotLimit) =>
      warrantyReport(database.db, query, config.currency, lotLimit),
    ),
    guards,
  });
  await api.register(shipmentRoutes, { shipments: store.shipments, guards });
  await api.register(lotRoutes, { db: database.db, guards });
  await api.register(invoiceRoutes, { invoices: store.invoices, guards });
  await api.register(termsRoutes, { terms: store.terms, guards });
  await api.register(cartRoutes, { cart, guards, markets: store.requestMarkets });
  await api.register(checkoutRoutes, { checkout, guards, markets: store.requestMarkets });
  await api.register(addressRoutes, {
    // A customer's default delivery country kept in memory goes as their change answers.
    addresses: createAddressService(database.db, (userId) =>
      store.deliveryCountries.forget(userId),
    ),
    guards,
  });
  await api.register(shippingRoutes, {
    shipping: createShippingService(database.db),
    guards,
  });
  // Stock locations, a product's stock at each, counts and transfers (docs/inventory.md).
  await api.register(locationRoutes, {
    locations: createLocationService(database.db, () => catalogCache.invalidate("stock")),
    guards,
  });
  // Incoming supply: production runs and purchase orders, received into a location.
  await api.register(supplyRoutes, {
    supply: createSupplyService(database.db, () => catalogCache.invalidate("stock")),
    db: database.db,
    guards,
  });
  await api.register(taxRoutes, {
    // The countries' rates kept in memory (a VAT-inclusive market's consumers) go as it answers.
    tax: createTaxService(database.db, () => store.consumerRates.invalidate()),
    companyTax: createCompanyTaxService(database.db, { vatChecks: store.vatChecks }),
    guards,
  });
  await api.register(adminHomeRoutes, {
    home: store.adminHome,
    lowStockEmail: store.lowStockEmail,
    guards,
  });
  await api.register(coreChargeRoutes, {
    coreCharges: createCoreChargeService(database.db, { currency: config.currency }),
    guards,
  });
  await api.register(paymentRoutes, {
    payments,
    guards,
    rateLimiter,
    confirmPerIp: config.paymentConfirmPerIp,
    ...payment.routes,
  });
  // A catalog answer's market for a caller: a trade buyer (a company member) sees the market's net
  // prices (docs/tax.md).
  const catalogMarkets = catalogMarketsOf(config.currency);
  const catalogMarketFor = async (req: FastifyRequest, customerId: string | undefined) => {
    const market = await store.requestMarkets.of(req, customerId);
    const net =
      market?.taxRateMillipercent !== undefined &&
      customerId !== undefined &&
      (await companyPrices.isTrade(customerId));
    return catalogMarkets.of(market, net);
  };
  await api.register(catalogRoutes, {
    catalog,
    removeProduct: createDeleteProduct(database.db),
    vehicles,
    catalogCache,
    replica: store.replica,
    guards,
    storage: store.storage,
    requestTimeoutMs: config.requestTimeoutMs,
    listPrices: (customerId, items, known, m) =>
      listPricesFor(
        companyPrices,
        customerId,
        config.currency,
        items,
        known,
        m.market as PricingMarket | undefined,
      ),
    markets: {
      choice: store.requestMarkets.choice,
      of: catalogMarketFor,
      none: catalogMarkets.none,
    },
    listCaller: (req) => store.sessions.reader(req.headers.cookie),
  });
  await api.register(facetRoutes, {
    facets: createFacetService(database.db, catalog),
    catalog,
    vehicles,
    catalogCache,
  });
  await api.register(reviewRoutes, {
    reviews: store.reviews,
    guards,
    rateLimiter,
  });
  await api.register(vehicleRoutes, { vehicles, guards });
  await api.register(vehicleAdminRoutes, {
    admin: createVehicleAdmin(database.db, {
      fitmentRows: fitmentRowsNaming,
      orderLines: orderLinesNaming,
    }),
    csv: createVehicleCsv(database.db),
    catalogCache,
    guards,
  });
  await api.register(fitmentRoutes, {
    catalog,
    fitment: store.fitment,
    vehicles,
    catalogCache,
    guards,
  });
  await api.register(partRoutes, {
    partPages: store.partPages,
    catalogCache,
    replica: store.replica,
    // A part's page in the market of a visitor's choice (its cookie or ?market=), else of a
    // signed-in customer's default delivery country, as their list's.
    ...(store.requestMarkets.choice && {
      marketOf: async (req: FastifyRequest) =>
        catalogMarketFor(req, await store.marketCustomerOf(req)),
    }),
  });
  await api.register(attributeRoutes, {
    attributes: createAttributeService(database.db),
    catalogCache,
    guards,
  });
  await api.register(productCsvRoutes, {
    productCsv: createProductCsvService(database.db, api.log),
    guards,
  });
  await api.register(importRoutes, {
    imports: store.imports,
    guards,
    storage: store.storage,
    maxBytes: config.imports.maxBytes,
  });
  await api.register(notificationRoutes, {
    notifications: createNotificationService(database.db),
    guards,
  });
  await api.register(auditRoutes, { db: database.db, guards });
  await api.register(apiKeyRoutes, { keys: apiKeys, guards });
  // Bulk stock and price sync, and change cursors for systems that poll (docs/bulk-sync.md).
  await api.register(bulkRoutes, {
    bulk: createBulkSync(database.db, {
      stockChanged: () => catalogCache.invalidate("stock"),
      catalogChanged: () => catalogCache.invalidate("catalog"),
      pricesChanged: () => companyPrices.invalidate(),
    }),
    guards,
  });
  await api.register(syncRoutes, { sync: createSyncService(database.db), guards });
  await api.register(webhookRoutes, { webhooks: store.webhooks, guards });
  await api.register(pricingRoutes, {
    priceLists: createPriceListService(database.db, { currency: config.currency }),
    guards,
    db: database.db,
    currency: config.currency,
    pricesChanged: () => companyPrices.invalidate(),
    markets: store.requestMarkets,
  });
  await api.register(customerGroupRoutes, {
    groups: createCustomerGroupService(database.db),
    guards,
    pricesChanged: () => companyPrices.invalidate(),
  });
  await api.register(marketRoutes, {
    markets: store.markets,
    guards,
    marketsChanged: () => {
      store.marketCache.invalidate();
      catalogCache.invalidate("stock");
    },
  });
  await api.register(discountCodeRoutes, {
    codes: createDiscountCodeService(database.db, { currency: config.currency }),
    guards,
  });
  await api.register(companyRoutes, {
    companies: createCompanyService(database.db, {
      mailer,
      publicUrl,
      openInvoicesCents,
      viesChecks: store.vatChecks.enabled,
    }),
    guards,
    pricesChanged: () => companyPrices.invalidate(),
    rateLimiter,
  });
  await api.register(companyAddressRoutes, {
    companyAddresses: createCompanyAddressService(database.db),
    guards,
  });
  await api.register(approvalRoutes, { approvals: store.approvals, guards });
  await api.register(quoteRoutes, {
    quotes: createQuoteService(database.db, {
      currency: config.currency,
      mailer,
      publicUrl,
    }),
    checkout,
    guards,
    rateLimiter,
    markets: store.requestMarkets,
  });
  await api.register(quickOrderRoutes, {
    quickOrder: createQuickOrderService(database.db, cart, { currency: config.currency }),
    guards,
    rateLimiter,
    rules: store.orderLimits.rules,
    markets: store.requestMarkets,
  });
  await api.register(reorderRoutes, {
    reorder: createReorderService(database.db, cart, { currency: config.currency }),
    guards,
    markets: store.requestMarkets,
  });
  await api.register(listRoutes, {
    lists: createListService(database.db, cart, { currency: config.currency }),
    guards,
    markets: store.requestMarkets,
  });
  await api.register(sessionRoutes, {
    sessions: createSessionService(database.db, {
      absoluteSeconds: config.sessionAbsoluteSeconds,
    }),
    guards,
  });
}
