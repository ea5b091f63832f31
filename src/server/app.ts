import { existsSync } from "node:fs";
import path from "node:path";
import helmet from "@fastify/helmet";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { catalogRoutes } from "./catalog/routes";
import { createCatalogService } from "./catalog/service";
import type { Config } from "./config";
import type { Database } from "./db/database";
import { errorHandler } from "./error-handler";
import { healthRoutes } from "./health/routes";
import { reviewRoutes } from "./reviews/routes";
import { createReviewService } from "./reviews/service";
import { siteConfigRoutes } from "./site-config/routes";

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
}

/** Assembles the whole server without listening: `main.ts` starts it, tests `inject()` into it. */
export async function buildApp({ config, database, logger }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: 256 * 1024,
    // Answer malformed ids and queries with 400 rather than routing surprises.
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Style attributes and the toast library's injected stylesheet; scripts stay 'self' only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: config.env === "production" ? [] : null,
      },
    },
    hsts: config.env === "production",
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });

  await app.register(swagger, {
    openapi: {
      info: { title: "PartsWorks store API", version: "1.0.0" },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  const catalog = createCatalogService(database.db);
  const reviews = createReviewService(database.db);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      await api.register(siteConfigRoutes, { siteConfig: { currency: config.currency } });
      await api.register(catalogRoutes, { catalog });
      await api.register(reviewRoutes, { reviews });
    },
    { prefix: "/api" },
  );

  await registerWebApp(app, config.webDistDir);
  return app;
}

/** Serves the built single-page app; any page path that is not a file gets `index.html`. */
async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexHtml = path.join(webDistDir, "index.html");
  const built = existsSync(indexHtml);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        reply.header("cache-control", cacheControlFor(filePath));
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split("?")[0] ?? "/";
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      return reply.code(404).send({ error: "not_found", message: "No such API route" });
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return reply.code(404).send({ error: "not_found", message: "Not found" });
    }
    if (!built) {
      return reply
        .code(404)
        .type("text/plain")
        .send("The web app is not built yet: run `npm run build`, then restart the server.");
    }
    return reply.sendFile("index.html");
  });
}

/** Hashed build assets never change; index.html must be revalidated so a deploy shows at once. */
function cacheControlFor(filePath: string): string {
  if (filePath.includes(`${path.sep}assets${path.sep}`))
    return "public, max-age=31536000, immutable";
  if (path.basename(filePath) === "index.html") return "no-cache";
  return "public, max-age=3600";
}
