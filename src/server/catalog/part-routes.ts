import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import { partPageSchema, partParamsSchema, type PartPage } from "../../contract/parts";
import { errorAnswers } from "../api-errors";
import { notFound } from "../errors";
import type { PartPages } from "./part-pages";
import type { CachedResponse, CatalogReadCache } from "./read-cache";
import { sendCached, type CatalogMarket } from "./routes";
import type { ReplicaReads } from "../db/read-replica";

export interface PartRoutesOptions {
  partPages: PartPages;
  catalogCache: CatalogReadCache;
  /** Where the reads go: a read replica or the primary (db/read-replica.ts). */
  replica: Pick<ReplicaReads, "run">;
  /**
   * The market a request prices in (as the catalog's routes take it): a market's page is made
   * from the store's and kept under its own key. Absent: the default market.
   */
  marketOf?: (req: FastifyRequest) => Promise<CatalogMarket>;
}

/**
 * A part's public page as the API answers it (lower-case address), from the catalog's read cache:
 * the same answer the server renders `/parts/{slug}` from (web-app.ts), cleared by any catalog
 * or stock change.
 */
export const partAnswer = (
  cache: CatalogReadCache,
  partPages: Pick<PartPages, "bySlug">,
  slug: string,
): Promise<CachedResponse | undefined> =>
  cache.get(JSON.stringify(["part", slug]), () => partPages.bySlug(slug));

/** The public part pages' data (docs/catalog.md "Part pages"): for anyone, no sign-in. */
export const partRoutes: FastifyPluginAsyncZod<PartRoutesOptions> = async (
  app,
  { partPages, catalogCache, replica, marketOf },
) => {
  app.get(
    "/parts/:slug",
    {
      schema: {
        tags: ["catalog"],
        summary:
          "A part's public page: list price, in stock or not, the numbers it replaces and the vehicles it fits (anyone)",
        params: partParamsSchema,
        response: { 200: partPageSchema, ...errorAnswers(400, 404) },
      },
      config: { apiScope: "catalog:read" },
    },
    async (req, reply) => {
      const slug = req.params.slug.toLowerCase();
      const market = await marketOf?.(req);
      const cached = await replica.run(req, async () => {
        if (!market?.key) return partAnswer(catalogCache, partPages, slug);
        return catalogCache.get(market.key + JSON.stringify(["part", slug]), async () => {
          const made = await partAnswer(catalogCache, partPages, slug);
          return made && market.price(JSON.parse(made.body.toString("utf8")) as PartPage);
        });
      });
      if (!cached) throw notFound("Part not found");
      return sendCached(req, reply, cached);
    },
  );
};
