import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import { csvPreviewSchema, importJobSchema, MAX_CSV_BYTES } from "../../contract/product-csv";
import { errorAnswers } from "../api-errors";
import { fileDay, sendCsvFile } from "../http/download";
import { adminRoute, caller, type Guards } from "../http/request-context";
import { csvUploadLimits, readCsvUpload } from "../http/upload";
import type { ProductCsvService } from "./service";

export interface ProductCsvRoutesOptions {
  productCsv: ProductCsvService;
  guards: Guards;
}

const errors = errorAnswers(400, 401, 403, 413, 415);

/** Product CSV import and export, for admins (docs/admin.md, "Product CSV import and export"). */
export const productCsvRoutes: FastifyPluginAsyncZod<ProductCsvRoutesOptions> = async (
  app,
  { productCsv, guards },
) => {
  // Every route is an admin's: a read of the catalog, or a write (API keys' scopes).
  const reads = adminRoute(guards, "catalog:read");
  const writes = adminRoute(guards, "catalog:write");
  await app.register(multipart, {
    limits: csvUploadLimits(MAX_CSV_BYTES),
  });

  app.get(
    "/admin/products/export.csv",
    {
      schema: {
        tags: ["catalog"],
        summary: "Every product with its numbers as CSV (admins)",
        produces: ["text/csv"],
        response: { 200: z.string(), ...errorAnswers(401, 403) },
      },
      ...reads,
    },
    async (_req, reply) =>
      sendCsvFile(reply, `products-${fileDay()}.csv`, await productCsv.exportCsv()),
  );

  app.post(
    "/admin/product-imports/preview",
    {
      schema: {
        tags: ["catalog"],
        summary: "Check a product CSV (multipart field `file`): every row's errors; writes nothing",
        consumes: ["multipart/form-data"],
        response: { 200: csvPreviewSchema, ...errors },
      },
      ...writes,
    },
    async (req) => productCsv.preview(await readCsvUpload(req, MAX_CSV_BYTES)),
  );

  app.post(
    "/admin/product-imports",
    {
      schema: {
        tags: ["catalog"],
        summary: "Import a product CSV without errors, in one transaction; poll the job",
        consumes: ["multipart/form-data"],
        response: { 202: importJobSchema, ...errors },
      },
      ...writes,
    },
    async (req, reply) => {
      const me = caller(req);
      const { job } = await productCsv.start(await readCsvUpload(req, MAX_CSV_BYTES), me);
      return reply.code(202).send(job);
    },
  );

  app.get(
    "/admin/product-imports/:id",
    {
      schema: {
        tags: ["catalog"],
        summary: "An import's progress (admins)",
        params: idParamsSchema,
        response: {
          200: importJobSchema,
          ...errorAnswers(401, 403, 404),
        },
      },
      ...reads,
    },
    async (req) => productCsv.job(req.params.id),
  );
};
