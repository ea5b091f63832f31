import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { siteConfigSchema, type SiteConfig, type SocialProvider } from "../../contract/site-config";
import type { Config } from "../config";

/** The sign-in buttons the pages offer: each social provider the store is configured with. */
export function socialProvidersOf(
  config: Pick<Config, "google" | "github">,
  oidc: Config["oidc"],
): SocialProvider[] {
  return [
    ...(config.google ? [{ id: "google" as const, label: "Google" }] : []),
    ...(config.github ? [{ id: "github" as const, label: "GitHub" }] : []),
    ...(oidc ? [{ id: "oidc" as const, label: oidc.label }] : []),
  ];
}

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
