import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built single-page app. A public page the build pre-rendered (`pages/<name>.html`,
 * scripts/prerender-pages.ts) is answered with its own HTML when asked for without a query
 * string: that HTML shows the page, and preloads the data, as they are with no parameters. Any
 * other page path gets `index.html`, and the app renders it in the browser.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const built = existsSync(path.join(webDistDir, "index.html"));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        reply.header("cache-control", cacheControlFor(filePath));
      },
    });
  }
  const prerendered = prerenderedPages(webDistDir);

  app.setNotFoundHandler((req, reply) => {
    const [pathname = "/", query] = req.url.split("?", 2);
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
    const page = query === undefined && prerendered.get(pathname.replace(/\/+$/, "") || "/");
    return reply.sendFile(page || "index.html");
  });
}

/** Page path → its pre-rendered file: `pages/index.html` is `/`, `pages/blogs.html` `/blogs`. */
function prerenderedPages(webDistDir: string): Map<string, string> {
  const dir = path.join(webDistDir, "pages");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".html")) : [];
  return new Map(
    files.map((file) => {
      const name = file.slice(0, -".html".length);
      return [name === "index" ? "/" : `/${name}`, `pages/${file}`];
    }),
  );
}

/** Hashed build assets never change; HTML must be revalidated so a deploy shows at once. */
function cacheControlFor(filePath: string): string {
  if (filePath.includes(`${path.sep}assets${path.sep}`))
    return "public, max-age=31536000, immutable";
  if (filePath.endsWith(".html")) return "no-cache";
  return "public, max-age=3600";
}
