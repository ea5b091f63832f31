import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  MAX_PRICE_LIST_CSV_BYTES,
  priceListCreateSchema,
  priceListEntryInputSchema,
  priceListEntryParamsSchema,
  priceListEntrySchema,
  priceListImportResultSchema,
  priceListImportSchema,
  priceListSchema,
  priceListUpdateSchema,
  productPriceSchema,
  searchPagingQuerySchema,
  type ProductPrice,
} from "../../contract/pricing";
import { errorAnswers } from "../api-errors";
import { onEachWrite } from "../http/each-write";
import { actor, adminErrors } from "./admin-answers";
import { pagedListRoute, sendPage } from "../http/page";
import { recordRoutes } from "../http/record-routes";
import { adminRoute, caller, type Guards } from "../http/request-context";
import type { Db } from "../db/database";
import { products } from "../catalog/tables";
import { notFound } from "../errors";
import { centsToUnits } from "../money";
import type { PriceListService } from "./price-lists";
import type { RequestMarkets } from "./request-market";
import { priceInMarket } from "./market-money";
import {
  minimumFor,
  packFor,
  priceTiers,
  pricingFor,
  unitPriceWithNote,
  type PricingMarket,
} from "./pricing";

/** The caller's price of one product, and their breaks table (a company buyer's own prices). */
export async function productPrice(
  db: Db,
  customerId: string | undefined,
  currency: string,
  productId: string,
  /** The market it is priced in (docs/pricing.md "Markets and currencies"); absent: none. */
  market?: PricingMarket,
): Promise<ProductPrice> {
  const [[product], context] = await Promise.all([
    db
      .select({
        id: products.id,
        listPriceCents: products.priceCents,
        minimumOrder: products.minimumOrder,
        retailMinimum: products.retailMinimum,
        packSize: products.packSize,
        publicBreaks: products.breaks,
      })
      .from(products)
      .where(eq(products.id, productId)),
    pricingFor(db, customerId, currency, [productId], market),
  ]);
  if (!product) throw notFound("Product not found");
  const minimumOrder = minimumFor(context, product);
  const tiers = priceTiers(context, { ...product, minimumOrder });
  const first = unitPriceWithNote(context, {
    productId,
    qty: minimumOrder,
    listPriceCents: product.listPriceCents,
    publicBreaks: product.publicBreaks,
  });
  return {
    productId,
    currency: context.currency,
    listPrice: centsToUnits(priceInMarket(product.listPriceCents, market, context.taxIncluded)),
    yourPrice: centsToUnits(first.unitPriceCents),
    companyPrice: context.overlay?.has(productId) ?? false,
    priceNote: first.note,
    minimumOrder,
    packSize: packFor(context, product),
    breaks: tiers.map((t) => ({ minQty: t.minQty, unitPrice: centsToUnits(t.unitPriceCents) })),
  };
}

/** Price lists (admin) and a caller's own price of a product. */
export const pricingRoutes: FastifyPluginAsyncZod<{
  priceLists: PriceListService;
  guards: Guards;
  db: Db;
  currency: string;
  /** Told of every successful write (the company price cache is cleared). */
  pricesChanged?: () => void;
  /** The market a request prices in (request-market.ts); absent: none. */
  markets?: Pick<RequestMarkets, "of">;
}> = async (app, { priceLists, guards, db, currency, pricesChanged, markets }) => {
  // A change to a company's list or members, or to a price list, clears this process's company
  // prices as its answer leaves, so the writer's next read never waits for the NOTIFY (which the
  // other processes hear: migration 0034). Any successful write here counts.
  onEachWrite(app, () => pricesChanged?.());
  app.get(
    "/products/:id/price",
    {
      schema: {
        tags: ["catalog"],
        summary:
          "What one unit of this product costs you (your company's price and quantity breaks when you have them; the list price otherwise). Never cached: the product itself stays in the shared cache",
        params: idParamsSchema,
        response: { 200: productPriceSchema, ...errorAnswers(400, 404) },
      },
      config: { apiScope: "catalog:read" },
    },
    async (req, reply) => {
      const me = await guards.currentUser(req);
      reply.header("cache-control", "private, no-store");
      const market = await markets?.of(req, me?.id);
      return productPrice(db, me?.id, currency, req.params.id, market);
    },
  );

  pagedListRoute(
    app,
    "/price-lists",
    {
      tags: ["pricing", "admin"],
      summary:
        "Admin: the price lists (by name, paged; `q` searches names); total in X-Total-Count",
      querystring: searchPagingQuerySchema,
      item: priceListSchema,
      errors: adminErrors,
      ...adminRoute(guards, "prices:write"),
    },
    (query) => priceLists.list(query),
  );
  const lists = recordRoutes(app, "/price-lists", {
    tags: ["pricing", "admin"],
    record: priceListSchema,
    errors: adminErrors,
    ...adminRoute(guards, "prices:write"),
  });
  lists.create(
    "Admin: a new price list (in the store's currency only: another is 400)",
    priceListCreateSchema,
    (body, me) => priceLists.create(actor(me), body),
  );
  lists.get("Admin: one price list", (id) => priceLists.get(id));
  lists.update("Admin: rename a price list", priceListUpdateSchema, (id, body, me) =>
    priceLists.rename(actor(me), id, body.name),
  );
  lists.remove("Admin: delete a price list no company uses (409 while one does)", (id, me) =>
    priceLists.remove(actor(me), id),
  );

  app.get(
    "/price-lists/:id/entries",
    {
      schema: {
        tags: ["pricing", "admin"],
        summary:
          "Admin: a price list's entries by part number (paged; `q` searches part numbers and names); total in X-Total-Count",
        params: idParamsSchema,
        querystring: searchPagingQuerySchema,
        response: { 200: z.array(priceListEntrySchema), ...adminErrors },
      },
      ...adminRoute(guards, "prices:write"),
    },
    async (req, reply) => {
      return sendPage(reply, await priceLists.entries(req.params.id, req.query));
    },
  );

  app.put(
    "/price-lists/:id/entries/:productId",
    {
      schema: {
        tags: ["pricing", "admin"],
        summary:
          "Admin: set a product's unit price and quantity breaks in a price list (`breaks`: [{ minQty, unitPrice }], each cheaper than the unit price)",
        params: priceListEntryParamsSchema,
        body: priceListEntryInputSchema,
        response: { 200: priceListEntrySchema, ...adminErrors },
      },
      ...adminRoute(guards, "prices:write"),
    },
    async (req) => {
      const me = caller(req);
      return priceLists.putEntry(actor(me), req.params.id, req.params.productId, req.body);
    },
  );

  app.delete(
    "/price-lists/:id/entries/:productId",
    {
      schema: {
        tags: ["pricing", "admin"],
        summary: "Admin: take a product out of a price list (its buyers pay the list price)",
        params: priceListEntryParamsSchema,
        response: { 204: z.null(), ...adminErrors },
      },
      ...adminRoute(guards, "prices:write"),
    },
    async (req, reply) => {
      const me = caller(req);
      await priceLists.removeEntry(actor(me), req.params.id, req.params.productId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/price-lists/:id/entries.csv",
    {
      schema: {
        tags: ["pricing", "admin"],
        summary:
          "Admin: the entries as CSV (`part_number,unit_price,breaks`, breaks like `10:11.00|50:9.80`); imports back as is",
        params: idParamsSchema,
        produces: ["text/csv"],
        response: { 200: z.string(), ...adminErrors },
      },
      ...adminRoute(guards, "prices:write"),
    },
    async (req, reply) => {
      const { csv } = await priceLists.exportCsv(req.params.id);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="price-list-${req.params.id}.csv"`)
        .header("cache-control", "no-store")
        .send(`\uFEFF${csv}`);
    },
  );

  app.post(
    "/price-lists/:id/entries/import",
    {
      schema: {
        tags: ["pricing", "admin"],
        summary:
          'Admin: import entries from CSV text (`{ csv, replace }`), all lines or none; each line\'s problem in `fields` ("line N")',
        params: idParamsSchema,
        body: priceListImportSchema,
        response: { 200: priceListImportResultSchema, ...adminErrors },
      },
      onRequest: guards.adminOnly,
      // The CSV travels as JSON text: room for a 5 MB file and its escaping.
      bodyLimit: MAX_PRICE_LIST_CSV_BYTES * 2,
      config: { apiScope: "prices:write" },
    },
    async (req) => {
      const me = caller(req);
      return priceLists.importCsv(actor(me), req.params.id, req.body);
    },
  );
};
