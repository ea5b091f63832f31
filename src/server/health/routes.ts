import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorAnswers } from "../api-errors";
import type { Database } from "../db/database";
import { UNAVAILABLE_MESSAGE } from "../error-handler";

/** Readiness gives the database this long, so that health always answers within 2 s. */
export const READINESS_TIMEOUT_MS = 1_500;

export const healthRoutes: FastifyPluginAsyncZod<{
  database: Database;
  /** True once a shutdown has begun: readiness then says so, and new work goes elsewhere. */
  isDraining: () => boolean;
}> = async (app, { database, isDraining }) => {
  const ok = { 200: z.object({ status: z.literal("ok") }) };

  app.get(
    "/health/live",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness: the process answers (the database is not asked)",
        response: ok,
      },
    },
    async () => ({ status: "ok" as const }),
  );

  for (const url of ["/health/ready", "/health"]) {
    app.get(
      url,
      {
        schema: {
          tags: ["health"],
          summary:
            "Readiness: the database answers `select 1` within 1.5 s and the store is not shutting down",
          response: { ...ok, ...errorAnswers(503) },
        },
      },
      async (req, reply) => {
        const goingAway = () =>
          reply.code(503).send({ error: "unavailable", message: "The store is shutting down." });
        if (isDraining()) return goingAway();
        try {
          await databaseAnswers(database);
          // A shutdown that began while the database was asked is news too.
          if (isDraining()) return goingAway();
          return { status: "ok" as const };
        } catch (err) {
          req.log.warn({ err }, "readiness: the database did not answer");
          return reply
            .code(503)
            .header("retry-after", "1")
            .send({ error: "unavailable", message: UNAVAILABLE_MESSAGE });
        }
      },
    );
  }
};

/** Resolves when the database answers `select 1` within `ms`; rejects otherwise. */
export async function databaseAnswers(
  database: Database,
  ms = READINESS_TIMEOUT_MS,
): Promise<void> {
  await withTimeout(database.pool.query("select 1"), ms);
}

/** Rejects when `promise` has not settled within `ms` (the promise itself runs on). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  promise.catch(() => {}); // a late failure after the timeout is not an unhandled rejection
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
