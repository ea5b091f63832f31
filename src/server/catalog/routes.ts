import multipart from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import { TOTAL_COUNT_HEADER } from "../../contract/constants";
import { hasSessionCookie } from "../auth/session-reader";
import {
  adminProductSchema,
  imageUploadedSchema,
  productCreatedSchema,
  productCreateSchema,
  productDetailSchema,
  productListItemSchema,
  productListQuerySchema,
  productSuggestionsQuerySchema,
  productSuggestionsSchema,
  productUpdateSchema,
  type ProductDetail,
  type ProductListItem,
  type ProductListQuery,
  type YourListPrice,
} from "../../contract/products";
import { errorAnswers } from "../api-errors";
import { notFound } from "../errors";
import { withinDeadline } from "../request-deadline";
import type { ProductFilters } from "./service";
import { onEachWrite } from "../http/each-write";
import { adminRoute, caller, type Guards, type SessionUser } from "../http/request-context";
import type { FileStorage } from "../storage/storage";
import { createImageStore, imageUploadLimits, readImageUpload } from "./images";
import { queryKey, type CachedResponse, type CatalogReadCache } from "./read-cache";
import type { CatalogService } from "./service";
import type { VehicleService } from "../vehicles/service";
import { productChangeScopes } from "../api-keys/scopes";
import type { ReplicaReads } from "../db/read-replica";

export interface CatalogRoutesOptions {
  catalog: CatalogService;
  /** Deleting a product (workflows/delete-product.ts: refused while orders hold its stock). */
  removeProduct(id: string, actor: { id: string; email: string }): Promise<void>;
  /** Resolves the vehicle a list is filtered by (unknown ones are a 400). */
  vehicles: Pick<VehicleService, "resolve">;
  /** Public reads are answered from it (cleared on writes here, in app.ts, and by NOTIFY). */
  catalogCache: CatalogReadCache;
  /** Where the public reads go: a read replica or the primary (db/read-replica.ts). */
  replica: Pick<ReplicaReads, "run" | "readsOwnWrites">;
  guards: Guards;
  /** The store's files: uploaded product images go to its `uploads` area (served at /uploads/). */
  storage: FileStorage;
  /** REQUEST_TIMEOUT_SECONDS: the public reads' own deadline for their database reads. */
  requestTimeoutMs: number;
  /**
   * A signed-in customer's own prices for a page's products (their company's price list), or
   * none: the list's items are overlaid with them, the cached answer itself is left as it is
   * (docs/pricing.md). Absent: every caller gets the shared answer.
   */
  listPrices?: (
    customerId: string,
    /** The page's items in the store's currency. */
    items: readonly ProductListItem[],
    /** The `sameFor` of the page's last priced copy: when it is the caller's, no prices are made. */
    known: string | undefined,
    /** The market the page is priced in. */
    market: CatalogMarket,
  ) => Promise<ListPrices>;
  /**
   * The market a request prices in (pricing/request-market.ts, given by domains.ts): each
   * market's answers are kept and remembered by URL apart (never one market's prices to
   * another). `choice` false: every request is in the default market, nothing asked.
   */
  markets: {
    choice: boolean;
    of(req: FastifyRequest, customerId: string | undefined): Promise<CatalogMarket>;
    /** The default market (the store's currency). */
    none: CatalogMarket;
  };
  /**
   * Who is calling, for the list's company prices only: the session cache (auth/session-cache.ts)
   * where the app has one; else the session is read.
   */
  listCaller?: (req: FastifyRequest) => Promise<SessionUser | null>;
}

/** What a catalog answer prices (a list item, a product): its price, core deposit and breaks. */
export interface CatalogPriced {
  price: number;
  coreDeposit: number | null;
  breaks?: { minQty: number; unitPrice: number }[];
}

/** A market the catalog's answers are priced in, as the pricing module makes it. */
export interface CatalogMarket {
  /** Its answers' keys' and remembered URLs' prefix: "" for the default market. */
  key: string;
  /** The market as the pricing takes it (undefined: the default), passed on to `listPrices`. */
  market: unknown;
  /** An answer made in the store's currency, in this market, with its `currency`. */
  price<T extends CatalogPriced>(value: T): T & { currency: string };
}

/** A caller's own prices for a page's items (product id → prices; none: the shared answer). */
export interface ListPrices {
  prices: ReadonlyMap<string, YourListPrice>;
  /**
   * The same for every caller whose prices come from the same price list as it stands, never
   * the same for the list before and after a change: their priced copy of a cached page is the
   * same bytes, so it is kept with the page for the next such caller. Absent: made for this
   * request only.
   */
  sameFor?: string;
}

/**
 * Whether the route's onRequest hook will answer `req` from the read cache with no database read
 * (`answerFromCache` and `answerListFromCache` below): a GET of a URL the cache answers, unless it
 * is the list asked with a session while lists carry the customer's own prices (the hook answers
 * it too, but may first read the session or the company's prices). The overload shedding lets
 * these through (overload.ts).
 */
export function answeredFromCache(
  cache: CatalogReadCache,
  req: Pick<FastifyRequest, "method" | "url" | "headers">,
  withListPrices: boolean,
): boolean {
  if (req.method !== "GET" || !cache.canAnswer(req.url)) return false;
  const isList = req.url.split("?", 1)[0]!.endsWith("/products");
  return !(isList && withListPrices && hasSessionCookie(req.headers.cookie));
}

const adminErrors = errorAnswers(400, 401, 403, 404);

export const catalogRoutes: FastifyPluginAsyncZod<CatalogRoutesOptions> = async (
  app,
  {
    catalog,
    removeProduct,
    vehicles,
    catalogCache,
    replica,
    guards,
    storage,
    requestTimeoutMs,
    listPrices,
    listCaller = guards.currentUser,
    markets,
  },
) => {
  /** The signed-in caller of a list request (`listCaller`), asked once per request. */
  const callers = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();
  function callerOf(req: FastifyRequest): Promise<SessionUser | null> {
    let known = callers.get(req);
    if (!known) callers.set(req, (known = listCaller(req)));
    return known;
  }
  /** The request's market (`markets`), asked once per request. */
  const chosen = new WeakMap<FastifyRequest, Promise<CatalogMarket>>();
  function marketOf(req: FastifyRequest): Promise<CatalogMarket> {
    let known = chosen.get(req);
    if (!known) chosen.set(req, (known = chooseFor(req)));
    return known;
  }
  async function chooseFor(req: FastifyRequest): Promise<CatalogMarket> {
    if (!markets.choice) return markets.none;
    const me = hasSessionCookie(req.headers.cookie) ? await callerOf(req) : null;
    return markets.of(req, me?.role === "admin" ? undefined : me?.id);
  }

  // An admin's product change clears the totals too, before the answer leaves (read your writes).
  onEachWrite(app, () => catalogCache.invalidate("catalog"));
  // A public read asked for before by the same URL, still cached, is answered from here, before its
  // query is parsed and validated: what its handler would send (the same keys, headers and body),
  // still counted and logged by the app's hooks. Anything else goes on to the handler.
  // Each market's answers are remembered under its own key's prefix (`marketOf`).
  const cachedAnswer = (req: FastifyRequest, reply: FastifyReply, prefix = "") => {
    const answer =
      req.method === "GET" && !replica.readsOwnWrites(req)
        ? catalogCache.answerFor(prefix + req.url)
        : undefined;
    if (answer?.total !== undefined) reply.header(TOTAL_COUNT_HEADER, answer.total);
    return answer?.response;
  };
  const answerFromCache = (
    req: FastifyRequest,
    reply: FastifyReply,
    done: (err?: Error) => void,
  ) => {
    const answer = (prefix?: string) => {
      const cached = cachedAnswer(req, reply, prefix);
      if (!cached) return done();
      sendCached(req, reply, cached);
    };
    if (!markets.choice) return answer();
    marketOf(req).then(({ key }) => answer(key), done);
  };
  // The list, the same way; asked for with a session, the caller's own prices are added
  // (`sendList`: the session and the prices are kept in memory once read, so a buyer's page is
  // answered here as a visitor's is).
  const answerListFromCache = async (req: FastifyRequest, reply: FastifyReply) => {
    const cached = cachedAnswer(req, reply, markets.choice ? (await marketOf(req)).key : "");
    if (cached) return sendList(req, reply, cached);
  };

  const images = createImageStore(storage);

  app.get(
    "/products",
    {
      schema: {
        tags: ["catalog"],
        summary: "List products, paged; the total is in X-Total-Count",
        querystring: productListQuerySchema,
        response: { 200: z.array(productListItemSchema), ...errorAnswers(400) },
      },
      onRequest: answerListFromCache,
      config: { ownDeadline: true, apiScope: "catalog:read" },
    },
    async (req, reply) => {
      const { cached, total } = await withinDeadline(
        replica.run(req, async () => readList(req.query, req.url, await marketOf(req))),
        requestTimeoutMs,
      );
      reply.header(TOTAL_COUNT_HEADER, total);
      return sendList(req, reply, cached!);
    },
  );

  /**
   * A list page as cached, or, for a signed-in customer whose company prices some of its products
   * lower, a copy with their prices on those items, private to them (never stored, no ETag: the
   * shared answer's ETag is not theirs, so a revalidation gets the whole of it).
   */
  async function sendList(req: FastifyRequest, reply: FastifyReply, cached: CachedResponse) {
    if (listPrices && hasSessionCookie(req.headers.cookie)) {
      const me = await callerOf(req);
      if (me && me.role !== "admin") {
        const items = parsedItems(cached);
        const known = priced.get(cached);
        const market = await marketOf(req);
        const { prices, sameFor } = await withinDeadline(
          // Made from the page in the store's currency, in the page's market.
          listPrices(me.id, parsedItems(inStore.get(cached) ?? cached), known?.sameFor, market),
          requestTimeoutMs,
        );
        if (prices.size > 0 || (sameFor !== undefined && sameFor === known?.sameFor)) {
          return reply
            .header("cache-control", "private, no-store")
            .type("application/json; charset=utf-8")
            .send(pricedBody(cached, items, prices, sameFor));
        }
      }
    }
    return sendCached(req, reply, cached);
  }

  // A cached page's items, parsed once, and its last priced copy (one per page: at most as many as
  // the cache's pages, whatever the number of price lists), kept beside the cached entry weakly:
  // they go when it does.
  const parsed = new WeakMap<CachedResponse, ProductListItem[]>();
  // A market's page → the page in the store's currency it was made from (its buyers' own prices
  // are made from the store's prices).
  const inStore = new WeakMap<CachedResponse, CachedResponse>();
  const priced = new WeakMap<CachedResponse, { sameFor: string; body: Buffer }>();
  function parsedItems(cached: CachedResponse): ProductListItem[] {
    let items = parsed.get(cached);
    if (!items) {
      items = JSON.parse(cached.body.toString("utf8")) as ProductListItem[];
      parsed.set(cached, items);
    }
    return items;
  }
  function pricedBody(
    cached: CachedResponse,
    items: readonly ProductListItem[],
    prices: ReadonlyMap<string, YourListPrice>,
    sameFor: string | undefined,
  ): Buffer {
    const known = priced.get(cached);
    if (sameFor !== undefined && known?.sameFor === sameFor) return known.body;
    const body = Buffer.from(
      JSON.stringify(
        items.map((item) => {
          const p = prices.get(item._id);
          return p ? { ...item, ...p } : item;
        }),
      ),
    );
    if (sameFor !== undefined) priced.set(cached, { sameFor, body });
    return body;
  }

  /** A page of the list and its total, from the cache or the database. */
  async function readList(q: ProductListQuery, url: string, market: CatalogMarket) {
    // The whole parsed query is the key (every field, vehicle included, in a fixed order),
    // never a hand-picked part; the filters (all but sort and paging) key the total.
    const filters = filtersOf(q);
    const vehicle = await vehicleOf(vehicles, q);
    // Attribute filters are checked against their definitions (a 400 when unknown); without
    // them nothing is read and the list's SQL is as it was.
    const attributes = q.attr ? await catalog.attributeFilters(q) : undefined;
    const filtersKey = queryKey("filters", filters);
    const storeKey = queryKey("list", q);
    const key = market.key + storeKey;
    const storePage = () =>
      catalogCache.get(storeKey, async () =>
        (await catalog.page(q, vehicle, attributes)).map((p) => markets.none.price(p)),
      );
    let madeFrom: CachedResponse | undefined;
    const [cached, total] = await Promise.all([
      market.key
        ? catalogCache.get(key, async () => {
            madeFrom = (await storePage())!;
            return parsedItems(madeFrom).map((p) => market.price(p));
          })
        : storePage(),
      // Totals survive stock changes (orders); an in-stock total does not, so it is counted.
      filters.inStock === "true"
        ? catalog.count(filters, vehicle, attributes)
        : catalogCache.total(filtersKey, () => catalog.count(filters, vehicle, attributes)),
    ]);
    // No vehicle to look up, no in-stock count: the two keys are the whole answer. (Attribute
    // filters depend only on the definitions, and a change to them clears both keys.)
    if (madeFrom && cached) inStore.set(cached, madeFrom);
    if (!vehicle && filters.inStock !== "true") {
      catalogCache.rememberUrl(market.key + url, key, filtersKey);
    }
    return { cached, total };
  }

  app.get(
    "/products/suggestions",
    {
      schema: {
        tags: ["catalog"],
        summary: "What an empty search offers: names and categories spelt like it",
        querystring: productSuggestionsQuerySchema,
        response: { 200: productSuggestionsSchema, ...errorAnswers(400) },
      },
      config: { apiScope: "catalog:read" },
    },
    async (req, reply) => {
      const cached = await replica.run(req, () =>
        catalogCache.get(JSON.stringify(["suggestions", req.query.q.toLowerCase()]), async () => ({
          didYouMean: await catalog.suggestions(req.query.q),
        })),
      );
      return sendCached(req, reply, cached!);
    },
  );

  app.get(
    "/products/:id",
    {
      schema: {
        tags: ["catalog"],
        summary: "One product",
        params: idParamsSchema,
        response: { 200: productDetailSchema, ...errorAnswers(400, 404) },
      },
      onRequest: answerFromCache,
      config: { ownDeadline: true, apiScope: "catalog:read" },
    },
    async (req, reply) => {
      const market = await marketOf(req);
      const storeKey = `product:${req.params.id}`;
      const key = market.key + storeKey;
      const inStoreCurrency = () =>
        catalogCache.get(storeKey, async () => {
          const product = await catalog.get(req.params.id);
          return product && markets.none.price(product);
        });
      const inItsMarket = () =>
        catalogCache.get(key, async () => {
          const made = await inStoreCurrency();
          return made && market.price(JSON.parse(made.body.toString("utf8")) as ProductDetail);
        });
      const cached = await withinDeadline(
        replica.run(req, market.key ? inItsMarket : inStoreCurrency),
        requestTimeoutMs,
      );
      if (!cached) throw notFound("Product not found");
      catalogCache.rememberUrl(market.key + req.url, key);
      return sendCached(req, reply, cached);
    },
  );

  app.post(
    "/products",
    {
      schema: {
        tags: ["catalog"],
        summary: "Add a product (admins); the creator's email comes from the session",
        body: productCreateSchema,
        response: { 201: productCreatedSchema, ...adminErrors, ...errorAnswers(409) },
      },
      ...adminRoute(guards, "catalog:write"),
    },
    async (req, reply) => {
      const me = caller(req);
      const product = await catalog.create(me.email, req.body, me);
      return reply.code(201).send({ success: true as const, product });
    },
  );

  app.patch(
    "/products/:id",
    {
      schema: {
        tags: ["catalog"],
        summary: "Edit some fields of a product (admins), e.g. replenish its stock",
        params: idParamsSchema,
        body: productUpdateSchema,
        response: { 200: adminProductSchema, ...adminErrors, ...errorAnswers(409) },
      },
      ...adminRoute(guards, productChangeScopes),
    },
    async (req) => {
      const me = caller(req);
      return catalog.update(req.params.id, req.body, me);
    },
  );

  app.delete(
    "/products/:id",
    {
      schema: {
        tags: ["catalog"],
        summary: "Delete a product (admins); refused with 409 while it has unpaid orders",
        params: idParamsSchema,
        response: {
          200: z.object({ success: z.literal(true) }),
          ...adminErrors,
          ...errorAnswers(409),
        },
      },
      ...adminRoute(guards, "catalog:write"),
    },
    async (req) => {
      const me = caller(req);
      await removeProduct(req.params.id, me);
      return { success: true as const };
    },
  );

  // In a plugin of its own with the multipart parser: only the image upload accepts multipart
  // bodies, and no other route runs the parser's hooks (three per request).
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: imageUploadLimits });
    uploads.post(
      "/products/images",
      {
        schema: {
          tags: ["catalog"],
          summary:
            "Upload a product image (admins): multipart field `image`, PNG/JPEG/WebP/GIF up to 2 MiB",
          consumes: ["multipart/form-data"],
          response: {
            201: imageUploadedSchema,
            ...errorAnswers(400, 401, 403, 413, 415),
          },
        },
        ...adminRoute(guards, "catalog:write"),
      },
      async (req, reply) => {
        const url = await images.save(await readImageUpload(req));
        return reply.code(201).send({ url });
      },
    );
  });
};

/** The fields of a list query that page and sort it; every other field filters it. */
const pagingFields = new Set(["sort", "limit", "offset"]);

/** A list query's filters: every field but its sort and paging (the facets ignore those too). */
export const filtersOf = (q: ProductListQuery): ProductFilters =>
  Object.fromEntries(Object.entries(q).filter(([k]) => !pagingFields.has(k)));

/** The vehicle a list query names (year, make, model, perhaps engine); none without all three. */
export async function vehicleOf(vehicles: Pick<VehicleService, "resolve">, q: ProductListQuery) {
  return q.year !== undefined && q.make !== undefined && q.model !== undefined
    ? vehicles.resolve({ year: q.year, make: q.make, model: q.model, engine: q.engine })
    : undefined;
}

/**
 * Answers a cached body with its ETag. Browsers and proxies may keep it but must ask again
 * (`no-cache`): stock changes with every order, and a revalidation costs a 304 of no bytes.
 */
export function sendCached(req: FastifyRequest, reply: FastifyReply, cached: CachedResponse) {
  reply.header("etag", cached.etag).header("cache-control", "public, no-cache");
  if (req.headers["if-none-match"] === cached.etag) return reply.code(304).send();
  return reply.type("application/json; charset=utf-8").send(cached.body);
}
