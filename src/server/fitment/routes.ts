import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import {
  enginesQuerySchema,
  fitmentRangesInputSchema,
  fitmentRangesSchema,
  garageAddSchema,
  garageParamsSchema,
  garageSchema,
  makesQuerySchema,
  modelsQuerySchema,
  productFitmentQuerySchema,
  productFitmentSchema,
  vehicleOptionsSchema,
  vehicleQuerySchema,
  vehicleSchema,
  vinDecodedSchema,
  vinParamsSchema,
  yearsSchema,
} from "../../contract/vehicles";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../auth/guards";
import type { CatalogReadCache } from "../catalog/read-cache";
import { sendCached } from "../catalog/routes";
import type { CatalogService } from "../catalog/service";
import { notFound } from "../errors";
import type { FitmentService } from "./service";

export interface FitmentRoutesOptions {
  fitment: FitmentService;
  catalog: CatalogService;
  catalogCache: CatalogReadCache;
  guards: Guards;
}

const errors = errorAnswers(400);
const customerErrors = errorAnswers(400, 401, 403, 404, 409);

/** The vehicle selector, a product's fitment, the VIN check and My garage. */
export const fitmentRoutes: FastifyPluginAsyncZod<FitmentRoutesOptions> = async (
  app,
  { fitment, catalog, catalogCache, guards },
) => {
  app.get(
    "/vehicles/years",
    {
      schema: {
        tags: ["vehicles"],
        summary: "Model years we have vehicles for, newest first",
        response: { 200: yearsSchema },
      },
    },
    async () => fitment.years(),
  );

  app.get(
    "/vehicles/makes",
    {
      schema: {
        tags: ["vehicles"],
        summary: "Makes with vehicles of a model year",
        querystring: makesQuerySchema,
        response: { 200: vehicleOptionsSchema, ...errors },
      },
    },
    async (req) => fitment.makes(req.query.year),
  );

  app.get(
    "/vehicles/models",
    {
      schema: {
        tags: ["vehicles"],
        summary: "Models of a make in a model year",
        querystring: modelsQuerySchema,
        response: { 200: vehicleOptionsSchema, ...errors },
      },
    },
    async (req) => fitment.models(req.query.year, req.query.make),
  );

  app.get(
    "/vehicles/engines",
    {
      schema: {
        tags: ["vehicles"],
        summary: "Engines of a vehicle (year, make, model); 400 for a vehicle we do not know",
        querystring: enginesQuerySchema,
        response: { 200: vehicleOptionsSchema, ...errors },
      },
    },
    async (req) => fitment.engines(req.query.year, req.query.make, req.query.model),
  );

  app.get(
    "/vehicles/vehicle",
    {
      schema: {
        tags: ["vehicles"],
        summary: "A vehicle in words (for a shared link); 400 for one we do not know",
        querystring: vehicleQuerySchema,
        response: { 200: vehicleSchema, ...errors },
      },
    },
    async (req) => (await fitment.resolve(req.query)).vehicle,
  );

  app.get(
    "/vehicles/vin/:vin",
    {
      schema: {
        tags: ["vehicles"],
        summary:
          "Check a VIN (length, characters, check digit) and decode its model year and manufacturer",
        params: vinParamsSchema,
        response: { 200: vinDecodedSchema, ...errors },
      },
    },
    async (req) => fitment.decodeVin(req.params.vin),
  );

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
    },
    async (req, reply) => {
      const { id } = req.params;
      const q = req.query;
      const vehicle =
        q.year !== undefined && q.make !== undefined && q.model !== undefined
          ? await fitment.resolve({ year: q.year, make: q.make, model: q.model, engine: q.engine })
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
      onRequest: guards.adminOnly,
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
      onRequest: guards.adminOnly,
    },
    async (req) => {
      const me = caller(req);
      const rows = await fitment.replaceFitment(req.params.id, req.body.rows, me);
      // Read your writes: this process's cached lists forget the old fitment before answering.
      catalogCache.invalidate("catalog");
      return { rows };
    },
  );

  app.get(
    "/garage",
    {
      schema: {
        tags: ["vehicles"],
        summary: "My garage: the signed-in customer's saved vehicles",
        response: { 200: garageSchema, ...customerErrors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => fitment.garage(caller(req).id),
  );

  app.post(
    "/garage",
    {
      schema: {
        tags: ["vehicles"],
        summary: "Save a vehicle in My garage (saving it again changes nothing)",
        body: garageAddSchema,
        response: { 200: garageSchema, ...customerErrors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => fitment.addToGarage(caller(req).id, req.body),
  );

  app.delete(
    "/garage/:id",
    {
      schema: {
        tags: ["vehicles"],
        summary: "Remove a vehicle from My garage",
        params: garageParamsSchema,
        response: { 200: garageSchema, ...customerErrors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => fitment.removeFromGarage(caller(req).id, req.params.id),
  );
};
