import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import {
  fitmentRangesInputSchema,
  fitmentRangesSchema,
  productFitmentQuerySchema,
  productFitmentSchema,
} from "../../contract/vehicles";
import { errorAnswers } from "../api-errors";
import { notFound } from "../errors";
import { adminRoute, caller, type Guards } from "../http/request-context";
import type { VehicleService } from "../vehicles/service";
import type { ProductFitmentService } from "./fitment";
import type { CatalogReadCache } from "./read-cache";
import { sendCached } from "./routes";
import type { CatalogService } from "./service";

export interface FitmentRoutesOptions {
  catalog: CatalogService;
  fitment: ProductFitmentService;
  vehicles: Pick<VehicleService, "resolve">;
  catalogCache: CatalogReadCache;
  guards: Guards;
}

const errors = errorAnswers(400);

/** Which vehicles a product fits: for shoppers (cached), and the admin's fitment editor. */
export const fitmentRoutes: FastifyPluginAsyncZod<FitmentRoutesOptions> = async (
  app,
  { catalog, fitment, vehicles, catalogCache, guards },
) => {
  app.get(
    "/products/:id/fitment",
    {
      schema: {
        tags: ["vehicles"],
        summary:
          "The vehicles a product fits (by make and model, years as ranges); with a vehicle, whether it fits",
        params: idParamsSchema,
        querystring: productFitmentQuerySchema,
        response: { 200: productFitmentSchema, ...errors, ...errorAnswers(404) },
      },
      config: { apiScope: "catalog:read" },
    },
    async (req, reply) => {
      const { id } = req.params;
      const q = req.query;
      const vehicle =
        q.year !== undefined && q.make !== undefined && q.model !== undefined
          ? await vehicles.resolve({ year: q.year, make: q.make, model: q.model, engine: q.engine })
          : undefined;
      const key = JSON.stringify(["fitment", id, vehicle?.baseVehicleId, vehicle?.engineId]);
      const cached = await catalogCache.get(key, async () => {
        if (!(await catalog.get(id))) return undefined;
        const applications = await fitment.applications(id);
        if (!vehicle) return { applications };
        const details = await fitment.fitOf(id, vehicle);
        return {
          applications,
          vehicle: vehicle.vehicle,
          fit: { fits: details.length > 0, details },
        };
      });
      if (!cached) throw notFound("Product not found");
      return sendCached(req, reply, cached);
    },
  );

  const adminErrors = errorAnswers(400, 401, 403, 404);

  app.get(
    "/products/:id/fitment-rows",
    {
      schema: {
        tags: ["vehicles"],
        summary: "A product's fitment as year ranges, for the admin's form (admins)",
        params: idParamsSchema,
        response: { 200: fitmentRangesSchema, ...adminErrors },
      },
      ...adminRoute(guards, "catalog:read"),
    },
    async (req) => {
      if (!(await catalog.get(req.params.id))) throw notFound("Product not found");
      return { rows: await fitment.fitmentRanges(req.params.id) };
    },
  );

  app.put(
    "/products/:id/fitment-rows",
    {
      schema: {
        tags: ["vehicles"],
        summary:
          "Replace a product's fitment (admins): year ranges, stored one row per year; all or nothing",
        params: idParamsSchema,
        body: fitmentRangesInputSchema,
        response: { 200: fitmentRangesSchema, ...adminErrors },
      },
      ...adminRoute(guards, "catalog:write"),
    },
    async (req) => {
      const me = caller(req);
      const rows = await fitment.replaceFitment(req.params.id, req.body.rows, me);
      // Read your writes: this process's cached lists forget the old fitment before answering.
      catalogCache.invalidate("catalog");
      return { rows };
    },
  );
};
