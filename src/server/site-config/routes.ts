import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { siteConfigSchema, type SiteConfig } from "../../contract/site-config";

export const siteConfigRoutes: FastifyPluginAsyncZod<{ siteConfig: SiteConfig }> = async (
  app,
  { siteConfig },
) => {
  app.get(
    "/config",
    {
      schema: {
        tags: ["site"],
        summary: "The public part of the store's configuration",
        response: { 200: siteConfigSchema },
      },
    },
    async (_req, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return siteConfig;
    },
  );
};
