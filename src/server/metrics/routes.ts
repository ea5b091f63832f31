import { timingSafeEqual } from "node:crypto";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorAnswers } from "../api-errors";
import type { StoreMetrics } from "./service";

export interface MetricsRoutesOptions {
  metrics: StoreMetrics;
  /** The bearer token a scraper must send; without one /metrics does not exist (404). */
  token: string | undefined;
}

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN only: anyone
 * else gets 401 before anything is collected. Left out of the OpenAPI document.
 */
export const metricsRoutes: FastifyPluginAsyncZod<MetricsRoutesOptions> = async (
  app,
  { metrics, token },
) => {
  if (!token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  app.get(
    "/metrics",
    {
      schema: {
        hide: true,
        headers: z.object({ authorization: z.string().max(1000).optional() }),
        response: { 200: z.string(), ...errorAnswers(401) },
      },
      onRequest: async (req, reply) => {
        const given = Buffer.from(req.headers.authorization ?? "");
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          return reply
            .code(401)
            .header("www-authenticate", 'Bearer realm="metrics"')
            .send({ error: "unauthorized", message: "A valid metrics token is required" });
        }
      },
    },
    async (_req, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
};
