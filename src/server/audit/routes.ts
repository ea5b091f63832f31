import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { auditEntrySchema, auditQuerySchema } from "../../contract/audit";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import type { Guards } from "../http/request-context";
import type { Db } from "../db/database";
import { listAdminActions } from "./service";

export const auditRoutes: FastifyPluginAsyncZod<{ db: Db; guards: Guards }> = async (
  app,
  { db, guards },
) => {
  pagedListRoute(
    app,
    "/audit",
    {
      tags: ["admin"],
      summary: "Admin: the audit log of admin actions, newest first, paged; total in X-Total-Count",
      querystring: auditQuerySchema,
      item: auditEntrySchema,
      errors: errorAnswers(400, 401, 403),
      onRequest: guards.adminOnly,
    },
    (query) => listAdminActions(db, query),
  );
};
