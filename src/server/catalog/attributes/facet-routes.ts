import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { facetsSchema } from "../../../contract/facets";
import { productListQuerySchema } from "../../../contract/products";
import { errorAnswers } from "../../api-errors";
import { queryKey, type CatalogReadCache } from "../read-cache";
import { filtersOf, sendCached, vehicleOf } from "../routes";
import type { CatalogService } from "../service";
import type { VehicleService } from "../../vehicles/service";
import type { FacetService } from "./facets";

export interface FacetRoutesOptions {
  facets: FacetService;
  catalog: Pick<CatalogService, "attributeFilters">;
  /** Resolves the vehicle the list is filtered by (unknown ones are a 400). */
  vehicles: Pick<VehicleService, "resolve">;
  /** Answers are kept here like the list's (cleared by every catalog or stock change). */
  catalogCache: CatalogReadCache;
}

/** All products' filters by attribute value, with counts (docs/attributes.md, "Facets"). */
export const facetRoutes: FastifyPluginAsyncZod<FacetRoutesOptions> = async (
  app,
  { facets, catalog, vehicles, catalogCache },
) => {
  // A URL answered before, still cached, is answered before its query is parsed (as the list).
  const answerFromCache = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const answer = req.method === "GET" ? catalogCache.answerFor(req.url) : undefined;
    if (!answer) return done();
    sendCached(req, reply, answer.response);
  };

  app.get(
    "/products/facets",
    {
      schema: {
        tags: ["catalog"],
        summary:
          "The chosen category's attribute filters with counts, for the list's query (none without a category)",
        querystring: productListQuerySchema,
        response: { 200: facetsSchema, ...errorAnswers(400) },
      },
      onRequest: answerFromCache,
      config: { apiScope: "catalog:read" },
    },
    async (req, reply) => {
      const q = req.query;
      const filters = filtersOf(q);
      const vehicle = await vehicleOf(vehicles, q);
      const attributes = q.attr ? await catalog.attributeFilters(q) : [];
      const key = queryKey("facets", filters);
      const cached = await catalogCache.get(key, async () => ({
        facets: await facets.facets(filters, vehicle, attributes),
      }));
      // With no vehicle to look up, the key is the whole answer.
      if (!vehicle) catalogCache.rememberUrl(req.url, key);
      return sendCached(req, reply, cached!);
    },
  );
};
