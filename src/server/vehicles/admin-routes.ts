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
import { fileDay, sendCsvFile } from "../http/download";
import { onEachWrite } from "../http/each-write";
import { pagedListRoute } from "../http/page";
import { adminRoute, caller, type Guards, type SessionUser } from "../http/request-context";
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
  onEachWrite(app, () => catalogCache.invalidate("catalog"));

  const tags = ["vehicles"];
  // Every route is an admin's: a read of the vehicle database, or a write to it (API keys' scopes).
  const reads = adminRoute(guards, "catalog:read");
  const writes = adminRoute(guards, "catalog:write");

  pagedListRoute(
    app,
    "/vehicles/table",
    {
      tags,
      summary:
        "Admin: base vehicles (year, make, model) with their VCdb ids and engines, filtered by make, model and year, paged; total in X-Total-Count",
      querystring: vehicleTableQuerySchema,
      item: baseVehicleRowSchema,
      errors: readErrors,
      ...reads,
    },
    (query) => admin.table(query),
  );

  app.get(
    "/vehicles/names",
    {
      schema: {
        tags,
        summary: "Admin: every make with its models, every engine and submodel, with VCdb ids",
        response: { 200: vehicleNamesSchema, ...errorAnswers(401, 403) },
      },
      ...reads,
    },
    async () => admin.names(),
  );

  /**
   * One kind of record's three routes, in this order: add it (201), change it, remove it (204;
   * the summary says when 409 refuses). Each answers its record as `add` and `change` say.
   */
  const recordRoutes = <Add extends z.ZodType, Change extends z.ZodType>(kind: {
    path: string;
    add: { summary: string; body: Add; response: z.ZodType };
    change: { summary: string; body: Change; response: z.ZodType };
    removeSummary: string;
    added(actor: SessionUser, body: z.output<Add>): Promise<unknown>;
    changed(actor: SessionUser, id: number, body: z.output<Change>): Promise<unknown>;
    removed(actor: SessionUser, id: number): Promise<void>;
  }) => {
    const { add, change } = kind;
    app.post(
      kind.path,
      {
        schema: {
          tags,
          summary: add.summary,
          body: add.body,
          response: { 201: add.response, ...writeErrors },
        },
        ...writes,
      },
      async (req, reply) =>
        reply.code(201).send(await kind.added(caller(req), req.body as z.output<Add>)),
    );
    app.patch(
      `${kind.path}/:id`,
      {
        schema: {
          tags,
          summary: change.summary,
          params: vehicleRecordParamsSchema,
          body: change.body,
          response: { 200: change.response, ...writeErrors },
        },
        ...writes,
      },
      async (req) => kind.changed(caller(req), req.params.id, req.body as z.output<Change>),
    );
    app.delete(
      `${kind.path}/:id`,
      {
        schema: {
          tags,
          summary: kind.removeSummary,
          params: vehicleRecordParamsSchema,
          response: { 204: z.null(), ...writeErrors },
        },
        ...writes,
      },
      async (req, reply) => {
        await kind.removed(caller(req), req.params.id);
        return reply.code(204).send(null);
      },
    );
  };

  recordRoutes({
    path: "/vehicles/makes",
    add: { summary: "Admin: add a make", body: makeCreateSchema, response: adminMakeSchema },
    change: {
      summary: "Admin: rename a make or set its VCdb id (null clears it)",
      body: makeChangeSchema,
      response: adminMakeSchema,
    },
    removeSummary:
      "Admin: remove a make with its models and years; 409 while fitment rows, garages or order lines name them",
    added: admin.createMake,
    changed: admin.changeMake,
    removed: admin.removeMake,
  });

  recordRoutes({
    path: "/vehicles/models",
    add: {
      summary: "Admin: add a model to a make",
      body: modelCreateSchema,
      response: adminModelSchema,
    },
    change: {
      summary: "Admin: rename a model or set its VCdb id (null clears it)",
      body: modelChangeSchema,
      response: adminModelSchema,
    },
    removeSummary:
      "Admin: remove a model with its years; 409 while fitment rows, garages or order lines name them",
    added: admin.createModel,
    changed: admin.changeModel,
    removed: admin.removeModel,
  });

  recordRoutes({
    path: "/vehicles/engines",
    add: {
      summary: "Admin: add an engine (engine configuration)",
      body: engineCreateSchema,
      response: adminEngineSchema,
    },
    change: {
      summary: "Admin: rename an engine, or set its litres, fuel or VCdb id (null clears one)",
      body: engineChangeSchema,
      response: adminEngineSchema,
    },
    removeSummary:
      "Admin: remove an engine; 409 while fitment rows, garages or order lines name it",
    added: admin.createEngine,
    changed: admin.changeEngine,
    removed: admin.removeEngine,
  });

  recordRoutes({
    path: "/vehicles/base-vehicles",
    add: {
      summary:
        "Admin: add model years of a model (one base vehicle per year, from–to, at most 50), with the engines each was built with",
      body: baseVehiclesCreateSchema,
      response: baseVehiclesAddedSchema,
    },
    change: {
      summary:
        "Admin: change a base vehicle's year, VCdb id or engines (the whole list; 409 for an engine fitment rows or garages name)",
      body: baseVehicleChangeSchema,
      response: baseVehicleRowSchema,
    },
    removeSummary:
      "Admin: remove a base vehicle; 409 while fitment rows, garages or order lines name it",
    added: admin.addBaseVehicles,
    changed: admin.changeBaseVehicle,
    removed: admin.removeBaseVehicle,
  });

  recordRoutes({
    path: "/vehicles/submodels",
    add: {
      summary: "Admin: add a submodel (trim line)",
      body: submodelCreateSchema,
      response: adminSubmodelSchema,
    },
    change: {
      summary: "Admin: rename a submodel or set its VCdb id (null clears it)",
      body: submodelChangeSchema,
      response: adminSubmodelSchema,
    },
    removeSummary: "Admin: remove a submodel; 409 while fitment rows name it",
    added: admin.createSubmodel,
    changed: admin.changeSubmodel,
    removed: admin.removeSubmodel,
  });

  app.get(
    "/vehicles/export.csv",
    {
      schema: {
        tags,
        summary: "Admin: the vehicle table as CSV, one row per base vehicle and engine",
        produces: ["text/csv"],
        response: { 200: z.string(), ...errorAnswers(401, 403) },
      },
      ...reads,
    },
    async (_req, reply) => sendCsvFile(reply, `vehicles-${fileDay()}.csv`, await csv.exportCsv()),
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
      ...writes,
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
      ...writes,
    },
    async (req) => csv.import(await readCsvUpload(req, MAX_VEHICLE_CSV_BYTES), caller(req)),
  );
};
