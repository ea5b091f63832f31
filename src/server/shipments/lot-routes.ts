import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { lotImportSchema, MAX_LOT_CSV_BYTES } from "../../contract/shipments";
import { errorAnswers } from "../api-errors";
import type { Db } from "../db/database";
import { caller, type Guards } from "../http/request-context";
import { csvUploadLimits, readCsvUpload } from "../http/upload";
import { importLots } from "./lots";

const errors = errorAnswers(400, 401, 403, 413, 415, 429);

/** Production lots of lines already shipped, imported from a CSV (docs/warranty.md "Lots"). */
export const lotRoutes: FastifyPluginAsyncZod<{ db: Db; guards: Guards }> = async (
  app,
  { db, guards },
) => {
  await app.register(multipart, { limits: csvUploadLimits(MAX_LOT_CSV_BYTES) });

  app.post(
    "/shipments/lots",
    {
      schema: {
        tags: ["orders", "admin"],
        summary:
          "Admin: set the production lots of lines already shipped from a CSV (multipart field `file`; columns order, line, lot): each row's lot on every shipment of its order line; all or nothing, every problem listed with its line",
        consumes: ["multipart/form-data"],
        response: { 200: lotImportSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => importLots(db, await readCsvUpload(req, MAX_LOT_CSV_BYTES), caller(req)),
  );
};
