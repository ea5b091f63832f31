import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  MAX_VEHICLE_CSV_BYTES,
  adminEngineSchema,
  adminMakeSchema,
  adminModelSchema,
  adminSubmodelSchema,
  baseVehicleChangeSchema,
  baseVehicleRowSchema,
  baseVehiclesAddedSchema,
  baseVehiclesCreateSchema,
  engineChangeSchema,
  engineCreateSchema,
  makeChangeSchema,
  makeCreateSchema,
  modelChangeSchema,
  modelCreateSchema,
  submodelChangeSchema,
  submodelCreateSchema,
  vehicleCsvPreviewSchema,
  vehicleImportResultSchema,
  vehicleNamesSchema,
  vehicleRecordParamsSchema,
  vehicleTableQuerySchema,
} from "../../contract/vehicles";
import { errorAnswers } from "../api-errors";
import { sendPage } from "../http/page";
import { caller, type Guards } from "../http/request-context";
import { csvUploadLimits, readCsvUpload } from "../http/upload";
import type { VehicleAdmin } from "./admin";
import type { VehicleCsv } from "./csv-import";

export interface VehicleAdminRoutesOptions {
  admin: VehicleAdmin;
  csv: VehicleCsv;
  /** The catalog's read cache: its answers name vehicles (CatalogReadCache). */
  catalogCache: { invalidate(change: "catalog"): void };
  guards: Guards;
}

const readErrors = errorAnswers(400, 401, 403);
const writeErrors = errorAnswers(400, 401, 403, 404, 409);
const uploadErrors = errorAnswers(400, 401, 403, 409, 413, 415);

/**
 * The vehicle database for admins (docs/vehicles.md): makes, models, model years with their
 * engines, engines and submodels, the admin's table, and the vehicle CSV. The public selector's
 * reads are `routes.ts`.
 */
export const vehicleAdminRoutes: FastifyPluginAsyncZod<VehicleAdminRoutesOptions> = async (
  app,
  { admin, csv, catalogCache, guards },
) => {
  await app.register(multipart, {
    limits: csvUploadLimits(MAX_VEHICLE_CSV_BYTES),
  });
  // A change clears this process's catalog answers before the answer leaves (read your writes);
  // the tables' trigger tells every other process (migration 0055).
  app.addHook("onSend", (req, reply, payload, done) => {
    if (req.method !== "GET" && reply.statusCode < 400) catalogCache.invalidate("catalog");
    done(null, payload);
  });

  const tags = ["vehicles"];
  const onRequest = guards.adminOnly;

  app.get(
    "/vehicles/table",
    {
      schema: {
        tags,
        summary:
          "Admin: base vehicles (year, make, model) with their VCdb ids and engines, filtered by make, model and year, paged; total in X-Total-Count",
        querystring: vehicleTableQuerySchema,
        response: { 200: z.array(baseVehicleRowSchema), ...readErrors },
      },
      onRequest,
      config: { apiScope: "catalog:read" },
    },
    async (req, reply) => {
      return sendPage(reply, await admin.table(req.query));
    },
  );

  app.get(
    "/vehicles/names",
    {
      schema: {
        tags,
        summary: "Admin: every make with its models, every engine and submodel, with VCdb ids",
        response: { 200: vehicleNamesSchema, ...errorAnswers(401, 403) },
      },
      onRequest,
      config: { apiScope: "catalog:read" },
    },
    async () => admin.names(),
  );

  app.post(
    "/vehicles/makes",
    {
      schema: {
        tags,
        summary: "Admin: add a make",
        body: makeCreateSchema,
        response: { 201: adminMakeSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => reply.code(201).send(await admin.createMake(caller(req), req.body)),
  );

  app.patch(
    "/vehicles/makes/:id",
    {
      schema: {
        tags,
        summary: "Admin: rename a make or set its VCdb id (null clears it)",
        params: vehicleRecordParamsSchema,
        body: makeChangeSchema,
        response: { 200: adminMakeSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => admin.changeMake(caller(req), req.params.id, req.body),
  );

  app.delete(
    "/vehicles/makes/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: remove a make with its models and years; 409 while fitment rows, garages or order lines name them",
        params: vehicleRecordParamsSchema,
        response: { 204: z.null(), ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => {
      await admin.removeMake(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/vehicles/models",
    {
      schema: {
        tags,
        summary: "Admin: add a model to a make",
        body: modelCreateSchema,
        response: { 201: adminModelSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => reply.code(201).send(await admin.createModel(caller(req), req.body)),
  );

  app.patch(
    "/vehicles/models/:id",
    {
      schema: {
        tags,
        summary: "Admin: rename a model or set its VCdb id (null clears it)",
        params: vehicleRecordParamsSchema,
        body: modelChangeSchema,
        response: { 200: adminModelSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => admin.changeModel(caller(req), req.params.id, req.body),
  );

  app.delete(
    "/vehicles/models/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: remove a model with its years; 409 while fitment rows, garages or order lines name them",
        params: vehicleRecordParamsSchema,
        response: { 204: z.null(), ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => {
      await admin.removeModel(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/vehicles/engines",
    {
      schema: {
        tags,
        summary: "Admin: add an engine (engine configuration)",
        body: engineCreateSchema,
        response: { 201: adminEngineSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => reply.code(201).send(await admin.createEngine(caller(req), req.body)),
  );

  app.patch(
    "/vehicles/engines/:id",
    {
      schema: {
        tags,
        summary: "Admin: rename an engine, or set its litres, fuel or VCdb id (null clears one)",
        params: vehicleRecordParamsSchema,
        body: engineChangeSchema,
        response: { 200: adminEngineSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => admin.changeEngine(caller(req), req.params.id, req.body),
  );

  app.delete(
    "/vehicles/engines/:id",
    {
      schema: {
        tags,
        summary: "Admin: remove an engine; 409 while fitment rows, garages or order lines name it",
        params: vehicleRecordParamsSchema,
        response: { 204: z.null(), ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => {
      await admin.removeEngine(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/vehicles/base-vehicles",
    {
      schema: {
        tags,
        summary:
          "Admin: add model years of a model (one base vehicle per year, from–to, at most 50), with the engines each was built with",
        body: baseVehiclesCreateSchema,
        response: { 201: baseVehiclesAddedSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => reply.code(201).send(await admin.addBaseVehicles(caller(req), req.body)),
  );

  app.patch(
    "/vehicles/base-vehicles/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: change a base vehicle's year, VCdb id or engines (the whole list; 409 for an engine fitment rows or garages name)",
        params: vehicleRecordParamsSchema,
        body: baseVehicleChangeSchema,
        response: { 200: baseVehicleRowSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => admin.changeBaseVehicle(caller(req), req.params.id, req.body),
  );

  app.delete(
    "/vehicles/base-vehicles/:id",
    {
      schema: {
        tags,
        summary:
          "Admin: remove a base vehicle; 409 while fitment rows, garages or order lines name it",
        params: vehicleRecordParamsSchema,
        response: { 204: z.null(), ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => {
      await admin.removeBaseVehicle(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/vehicles/submodels",
    {
      schema: {
        tags,
        summary: "Admin: add a submodel (trim line)",
        body: submodelCreateSchema,
        response: { 201: adminSubmodelSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => reply.code(201).send(await admin.createSubmodel(caller(req), req.body)),
  );

  app.patch(
    "/vehicles/submodels/:id",
    {
      schema: {
        tags,
        summary: "Admin: rename a submodel or set its VCdb id (null clears it)",
        params: vehicleRecordParamsSchema,
        body: submodelChangeSchema,
        response: { 200: adminSubmodelSchema, ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => admin.changeSubmodel(caller(req), req.params.id, req.body),
  );

  app.delete(
    "/vehicles/submodels/:id",
    {
      schema: {
        tags,
        summary: "Admin: remove a submodel; 409 while fitment rows name it",
        params: vehicleRecordParamsSchema,
        response: { 204: z.null(), ...writeErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req, reply) => {
      await admin.removeSubmodel(caller(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/vehicles/export.csv",
    {
      schema: {
        tags,
        summary: "Admin: the vehicle table as CSV, one row per base vehicle and engine",
        produces: ["text/csv"],
        response: { 200: z.string(), ...errorAnswers(401, 403) },
      },
      onRequest,
      config: { apiScope: "catalog:read" },
    },
    async (_req, reply) => {
      const text = await csv.exportCsv();
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="vehicles-${day}.csv"`)
        .header("cache-control", "no-store")
        .send(`\uFEFF${text}`);
    },
  );

  app.post(
    "/vehicles/import/preview",
    {
      schema: {
        tags,
        summary:
          "Admin: check a vehicle CSV (multipart field `file`): what it would add and change, every row's errors; writes nothing",
        consumes: ["multipart/form-data"],
        response: { 200: vehicleCsvPreviewSchema, ...uploadErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => csv.preview(await readCsvUpload(req, MAX_VEHICLE_CSV_BYTES)),
  );

  app.post(
    "/vehicles/import",
    {
      schema: {
        tags,
        summary:
          "Admin: import a vehicle CSV without errors (multipart field `file`): adds and updates by name, never removes, all or nothing",
        consumes: ["multipart/form-data"],
        response: { 200: vehicleImportResultSchema, ...uploadErrors },
      },
      onRequest,
      config: { apiScope: "catalog:write" },
    },
    async (req) => csv.import(await readCsvUpload(req, MAX_VEHICLE_CSV_BYTES), caller(req)),
  );
};
