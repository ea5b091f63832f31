import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { siteConfigSchema, type SiteConfig, type SocialProvider } from "../../contract/site-config";
import type { z } from "zod";
import type { Config } from "../config";
import type { RouteApp } from "../http/page";

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

/**
 * `GET path`: a public answer fixed while the process runs (it comes from the configuration);
 * browsers and caches may keep it five minutes.
 */
export function fixedPublicRoute<A extends z.ZodType>(
  app: RouteApp,
  path: string,
  summary: string,
  schema: A,
  answer: z.infer<A>,
): void {
  // The answer's schema as such: `answer` is `z.infer<A>`, checked by its type.
  const response: z.ZodType = schema;
  app.get(
    path,
    { schema: { tags: ["site"], summary, response: { 200: response } } },
    async (_req, reply) => {
      reply.header("cache-control", "public, max-age=300");
      return answer;
    },
  );
}

export const siteConfigRoutes: FastifyPluginAsyncZod<{ siteConfig: SiteConfig }> = async (
  app,
  { siteConfig },
) => {
  fixedPublicRoute(
    app,
    "/config",
    "The public part of the store's configuration",
    siteConfigSchema,
    siteConfig,
  );
};
