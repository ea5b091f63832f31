import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import {
  enginesQuerySchema,
  garageAddSchema,
  garageParamsSchema,
  garageSchema,
  makesQuerySchema,
  modelsQuerySchema,
  vehicleOptionsSchema,
  vehicleQuerySchema,
  vehicleSchema,
  vinDecodedSchema,
  vinParamsSchema,
  yearsSchema,
} from "../../contract/vehicles";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import type { VehicleService } from "./service";

export interface VehicleRoutesOptions {
  vehicles: VehicleService;
  guards: Guards;
}

const errors = errorAnswers(400);
const customerErrors = errorAnswers(400, 401, 403, 404, 409);

/** The vehicle selector, the VIN check and My garage. */
export const vehicleRoutes: FastifyPluginAsyncZod<VehicleRoutesOptions> = async (
  app,
  { vehicles, guards },
) => {
  app.get(
    "/vehicles/years",
    {
      schema: {
        tags: ["vehicles"],
        summary: "Model years we have vehicles for, newest first",
        response: { 200: yearsSchema },
      },
      config: { apiScope: "catalog:read" },
    },
    async () => vehicles.years(),
  );

  /** `GET path`: a public read of the vehicle selector by its query (API keys: catalog:read). */
  const selector = <Q extends z.ZodType, A extends z.ZodType>(
    path: string,
    summary: string,
    querystring: Q,
    answer: A,
    read: (query: z.infer<Q>) => Promise<z.infer<A>>,
  ) =>
    app.get(
      path,
      {
        schema: {
          tags: ["vehicles"],
          summary,
          querystring,
          response: { 200: answer as z.ZodType, ...errors },
        },
        config: { apiScope: "catalog:read" },
      },
      async (req) => read(req.query as z.infer<Q>),
    );

  selector(
    "/vehicles/makes",
    "Makes with vehicles of a model year",
    makesQuerySchema,
    vehicleOptionsSchema,
    (q) => vehicles.makes(q.year),
  );
  selector(
    "/vehicles/models",
    "Models of a make in a model year",
    modelsQuerySchema,
    vehicleOptionsSchema,
    (q) => vehicles.models(q.year, q.make),
  );
  selector(
    "/vehicles/engines",
    "Engines of a vehicle (year, make, model); 400 for a vehicle we do not know",
    enginesQuerySchema,
    vehicleOptionsSchema,
    (q) => vehicles.engines(q.year, q.make, q.model),
  );
  selector(
    "/vehicles/vehicle",
    "A vehicle in words (for a shared link); 400 for one we do not know",
    vehicleQuerySchema,
    vehicleSchema,
    async (q) => (await vehicles.resolve(q)).vehicle,
  );

  app.get(
    "/vehicles/vin/:vin",
    {
      schema: {
        tags: ["vehicles"],
        summary:
          "Check a VIN (length, characters, the North-American check digit) and decode its region, manufacturer and model year",
        params: vinParamsSchema,
        response: { 200: vinDecodedSchema, ...errors },
      },
      config: { apiScope: "catalog:read" },
    },
    async (req) => vehicles.decodeVin(req.params.vin),
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
    async (req) => vehicles.garage(caller(req).id),
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
    async (req) => vehicles.addToGarage(caller(req).id, req.body),
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
    async (req) => vehicles.removeFromGarage(caller(req).id, req.params.id),
  );
};
