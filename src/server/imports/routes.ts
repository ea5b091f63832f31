import multipart from "@fastify/multipart";
import type { FileStorage } from "../storage/storage";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import { importListQuerySchema, importRecordSchema, type ImportKind } from "../../contract/imports";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import { adminRoute, caller, type Guards } from "../http/request-context";
import type { ImportService } from "./service";
import { saveUpload } from "./upload";

export interface ImportRoutesOptions {
  imports: ImportService;
  guards: Guards;
  /** Where uploads wait (the storage's `imports` area: upload.ts). */
  storage: FileStorage;
  /** IMPORT_MAX_FILE_MIB in bytes. */
  maxBytes: number;
}

/** Catalog data imports, for admins (docs/imports.md). */
export const importRoutes: FastifyPluginAsyncZod<ImportRoutesOptions> = async (
  app,
  { imports, guards, storage, maxBytes },
) => {
  // Every route is an admin's: a read of the catalog's imports, or a write (API keys' scopes).
  const reads = adminRoute(guards, "catalog:read");
  const writes = adminRoute(guards, "catalog:write");
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 2, fieldSize: 1024, parts: 3 },
  });

  /** The upload of one kind of file: saved, then checked and counted (nothing imported yet). */
  const uploadRoute = (kind: ImportKind, summary: string) =>
    app.post(
      `/imports/${kind}`,
      {
        schema: {
          tags: ["catalog"],
          summary,
          consumes: ["multipart/form-data"],
          response: { 201: importRecordSchema, ...errorAnswers(400, 401, 403, 413, 415) },
        },
        onRequest: guards.adminOnly,
        // A big file takes longer to send than the request timeout; the statements bound their own.
        config: { ownDeadline: true, apiScope: "catalog:write" },
      },
      async (req, reply) => {
        const me = caller(req);
        const upload = await saveUpload(req, storage, maxBytes, kind);
        return reply.code(201).send(await imports.preview(kind, upload, me));
      },
    );
  uploadRoute(
    "aces",
    "Upload an ACES 4.x fitment file (multipart field `file`, admins): checked and counted, nothing imported yet",
  );
  uploadRoute(
    "pies",
    "Upload a PIES 7.x product data file (multipart field `file`, admins): checked and compared with the catalog, nothing imported yet",
  );

  pagedListRoute(
    app,
    "/imports",
    {
      tags: ["catalog"],
      summary: "Recent imports, newest first, paged; total in X-Total-Count (admins)",
      querystring: importListQuerySchema,
      item: importRecordSchema,
      errors: errorAnswers(400, 401, 403),
      ...reads,
    },
    (query) => imports.list(query),
  );

  app.get(
    "/imports/:id",
    {
      schema: {
        tags: ["catalog"],
        summary: "An import: its counts, problems and progress (admins)",
        params: idParamsSchema,
        response: { 200: importRecordSchema, ...errorAnswers(400, 401, 403, 404) },
      },
      ...reads,
    },
    async (req) => imports.get(req.params.id),
  );

  app.post(
    "/imports/:id/start",
    {
      schema: {
        tags: ["catalog"],
        summary:
          "Import a previewed file: queued as a job that replaces the brand's fitment (ACES) or writes its parts (PIES) in one transaction (admins)",
        params: idParamsSchema,
        response: { 202: importRecordSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
      ...writes,
    },
    async (req, reply) => reply.code(202).send(await imports.start(req.params.id, caller(req))),
  );
};
