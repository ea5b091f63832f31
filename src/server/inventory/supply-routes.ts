import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { backorderQueueQuerySchema, queuedBackorderSchema } from "../../contract/backorder-queue";
import { idParamsSchema } from "../../contract/common";
import {
  incomingSupplySchema,
  MAX_SUPPLY_CSV_BYTES,
  supplyCreateSchema,
  supplyImportSchema,
  supplyListQuerySchema,
  supplyReceiveSchema,
  supplyUpdateSchema,
} from "../../contract/supply";
import { errorAnswers } from "../api-errors";
import type { Db } from "../db/database";
import { pagedListRoute } from "../http/page";
import { recordRoutes } from "../http/record-routes";
import { caller, type Guards } from "../http/request-context";
import { csvUploadLimits, readCsvUpload } from "../http/upload";
import { backorderQueue } from "./backorder-queue";
import type { SupplyService } from "./supply";
import { importSupply } from "./supply-csv";

const errors = errorAnswers(400, 401, 403, 404, 409, 422);

/**
 * Admin: incoming supply, production runs and purchase orders, and the backorder queue they fill
 * (docs/inventory.md).
 */
export const supplyRoutes: FastifyPluginAsyncZod<{
  supply: SupplyService;
  db: Db;
  guards: Guards;
}> = async (app, { supply, db, guards }) => {
  await app.register(multipart, { limits: csvUploadLimits(MAX_SUPPLY_CSV_BYTES) });

  pagedListRoute(
    app,
    "/incoming-supply",
    {
      tags: ["inventory"],
      summary:
        "Admin: incoming supply (production runs and purchase orders) by status, part and location, paged; open supply soonest expected first; total in X-Total-Count",
      querystring: supplyListQuerySchema,
      item: incomingSupplySchema,
      errors,
      onRequest: guards.adminOnly,
    },
    (query) => supply.list(query),
  );

  const supplies = recordRoutes(app, "/incoming-supply", {
    tags: ["inventory"],
    record: incomingSupplySchema,
    errors,
    onRequest: guards.adminOnly,
  });
  supplies.create(
    "Admin: enter supply that is coming: a production run or a purchase order of a part, to a location, expected on a date",
    supplyCreateSchema,
    (body, me) => supply.create(body, me),
  );

  app.post(
    "/incoming-supply/import",
    {
      schema: {
        tags: ["inventory"],
        summary:
          "Admin: enter incoming supply from a CSV (multipart field `file`; columns kind, reference, part_number, location_code, qty, expected_on, and optionally note): all or nothing, every problem listed with its line",
        consumes: ["multipart/form-data"],
        response: { 200: supplyImportSchema, ...errorAnswers(400, 401, 403, 413, 415, 429) },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => importSupply(db, await readCsvUpload(req, MAX_SUPPLY_CSV_BYTES), caller(req)),
  );

  supplies.update(
    "Admin: change open supply: its expected date, quantity (not below what was received), reference or note; only the fields sent change",
    supplyUpdateSchema,
    (id, body, me) => supply.update(id, body, me),
  );

  app.post(
    "/incoming-supply/:id/cancel",
    {
      schema: {
        tags: ["inventory"],
        summary:
          "Admin: cancel open supply (what is still to come is not coming; what arrived stays on sale)",
        params: idParamsSchema,
        response: { 200: incomingSupplySchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => supply.cancel(req.params.id, caller(req)),
  );

  app.post(
    "/incoming-supply/:id/receive",
    {
      schema: {
        tags: ["inventory"],
        summary:
          "Admin: receive units of open supply (at most those still to come) at its location, which must be active: they go on sale there and the product's stock moves as much",
        params: idParamsSchema,
        body: supplyReceiveSchema,
        response: { 200: incomingSupplySchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => supply.receive(req.params.id, req.body.qty, caller(req)),
  );

  pagedListRoute(
    app,
    "/backorders",
    {
      tags: ["inventory"],
      summary:
        "Admin: the backorder queue: order lines with units waiting for supply across all parts, first placed first (the order supply fills them), each with its promised date; by part and a search of the order number, buyer, company or part; paged, total in X-Total-Count",
      querystring: backorderQueueQuerySchema,
      item: queuedBackorderSchema,
      errors,
      onRequest: guards.adminOnly,
    },
    (query) => backorderQueue(db, query),
  );
};
