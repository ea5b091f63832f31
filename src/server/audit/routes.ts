import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { auditEntrySchema, auditQuerySchema } from "../../contract/audit";
import { errorAnswers } from "../api-errors";
import { sendPage } from "../http/page";
import type { Guards } from "../http/request-context";
import type { Db } from "../db/database";
import { listAdminActions } from "./service";

export const auditRoutes: FastifyPluginAsyncZod<{ db: Db; guards: Guards }> = async (
  app,
  { db, guards },
) => {
  app.get(
    "/audit",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Admin: the audit log of admin actions, newest first, paged; total in X-Total-Count",
        querystring: auditQuerySchema,
        response: {
          200: z.array(auditEntrySchema),
          ...errorAnswers(400, 401, 403),
        },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      return sendPage(reply, await listAdminActions(db, req.query));
    },
  );
};
