import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorSchema } from "../../contract/common";
import type { Database } from "../db/database";

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (
  app,
  { database },
) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and database check",
        response: { 200: z.object({ status: z.literal("ok") }), 503: apiErrorSchema },
      },
    },
    async (req, reply) => {
      try {
        await database.pool.query("select 1");
        return { status: "ok" as const };
      } catch (err) {
        req.log.error({ err }, "health check: database unreachable");
        return reply
          .code(503)
          .send({ error: "unavailable", message: "The database is not reachable" });
      }
    },
  );
};
