import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { partPageSchema, partParamsSchema } from "../../contract/parts";
import { errorAnswers } from "../api-errors";
import { notFound } from "../errors";
import type { PartPages } from "./part-pages";
import type { CachedResponse, CatalogReadCache } from "./read-cache";
import { sendCached } from "./routes";
import type { ReplicaReads } from "../db/read-replica";

export interface PartRoutesOptions {
  partPages: PartPages;
  catalogCache: CatalogReadCache;
  /** Where the reads go: a read replica or the primary (db/read-replica.ts). */
  replica: Pick<ReplicaReads, "run">;
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
  { partPages, catalogCache, replica },
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
      const cached = await replica.run(req, () => partAnswer(catalogCache, partPages, slug));
      if (!cached) throw notFound("Part not found");
      return sendCached(req, reply, cached);
    },
  );
};
