import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin, type Rolldown } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// The web app lives in src/web; static files (images) in /public; the build goes to dist/web,
// which the Fastify server serves in production.
export default defineConfig({
  root: "src/web",
  publicDir: "../../public",
  plugins: [
    react(),
    tailwindcss(),
    // What a public page needs before it can show anything: its route module (with the chunks it
    // imports) and, on the landing page, the hero picture (features/content/components/hero.tsx).
    // Paths as in src/web/app/paths.ts; a module or picture that is not there fails the build.
    routePreload({
      "/": { module: "src/web/app/routes/home.tsx", images: ["/images/hero.svg"] },
      "/home": { module: "src/web/app/routes/home.tsx", images: ["/images/hero.svg"] },
      "/allproducts": { module: "src/web/app/routes/all-products.tsx" },
      "/blogs": { module: "src/web/app/routes/blogs.tsx" },
      "/review": { module: "src/web/app/routes/review.tsx" },
      "/myprotfolio": { module: "src/web/app/routes/portfolio.tsx" },
      "/login": { module: "src/web/app/routes/login.tsx" },
      "/signup": { module: "src/web/app/routes/signup.tsx" },
    }),
    chunkModules(),
  ],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    // Keep inline data URIs out of the build: the CSP allows scripts from 'self' only.
    assetsInlineLimit: 0,
    // Every browser the store supports preloads modules natively; skip Vite's polyfill.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Fewer, fuller chunks on the way to the first paint: on a phone each request costs a
        // round trip, and a small chunk is mostly headers.
        codeSplitting: {
          groups: [
            // Everything the entry imports goes into the entry itself (rolldown would otherwise
            // split React, the query client and its own runtime into four more files).
            { name: "index", tags: ["$initial"] },
            // Loaded with the first toast (src/web/lib/notify.tsx); named for what it is.
            { name: "sonner", test: /[\\/]node_modules[\\/]sonner[\\/]/ },
            // Small pieces the public pages share: one file instead of eight.
            {
              name: "public",
              test: /src[\\/]web[\\/](components[\\/](page-title|query-error|pagination)|lib[\\/](format|use-site-config)|features[\\/]catalog[\\/](api[\\/]get-products|components[\\/]product-card(-skeleton)?))\.tsx?$|[\\/]queryOptions\.js$/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { "/api": `http://localhost:${process.env.API_PORT ?? "3001"}` },
  },
});

const repoRoot = import.meta.dirname;
const relative = (id: string) => path.relative(repoRoot, id).split(path.sep).join("/");

/**
 * Adds to index.html a tiny script that, for the page being opened, starts downloading its route
 * module (with the chunks that imports) and its key pictures right away, next to the main script:
 * otherwise they are only requested once the main script has arrived and run (one more round trip
 * before the first paint, several hundred milliseconds on a phone). A classic script from our own
 * origin, as the CSP allows no inline script.
 */
function routePreload(routes: Record<string, { module: string; images?: string[] }>): Plugin {
  let base = "/";
  let publicDir = "";
  return {
    name: "partsworks:route-preload",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      base = config.base;
      publicDir = config.publicDir;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (item): item is Rolldown.OutputChunk => item.type === "chunk",
      );
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const staticClosure = (start: Rolldown.OutputChunk) => {
        const seen = new Set<string>();
        const visit = (c: Rolldown.OutputChunk) => {
          if (seen.has(c.fileName)) return;
          seen.add(c.fileName);
          for (const f of c.imports) visit(byFile.get(f)!);
        };
        visit(start);
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return this.error("route-preload: no entry chunk");
      // The entry and what it imports are already in index.html.
      const inHtml = staticClosure(entry);
      const table: Record<string, { js: string[]; img: string[] }> = {};
      for (const [url, { module, images = [] }] of Object.entries(routes)) {
        const chunk = chunks.find((c) => c.facadeModuleId && relative(c.facadeModuleId) === module);
        if (!chunk) return this.error(`route-preload: ${module} (for ${url}) is not in the build`);
        const js = [...staticClosure(chunk)].filter((f) => !inHtml.has(f)).map((f) => base + f);
        for (const image of images) {
          if (!existsSync(path.join(publicDir, image))) {
            return this.error(`route-preload: ${image} (for ${url}) is not in ${publicDir}`);
          }
        }
        table[url] = { js, img: images };
      }
      const source = `// Generated by the build: routePreload in vite.config.ts.
(function () {
  var routes = ${JSON.stringify(table)};
  var route = routes[location.pathname.replace(/\\/+$/, "") || "/"];
  if (!route) return;
  function add(rel, href, as) {
    var link = document.createElement("link");
    link.rel = rel;
    link.href = href;
    if (as) link.as = as;
    if (rel === "modulepreload") link.crossOrigin = "";
    document.head.appendChild(link);
  }
  route.js.forEach(function (href) { add("modulepreload", href); });
  route.img.forEach(function (href) { add("preload", href, "image"); });
})();
`;
      const hash = createHash("sha256").update(source).digest("base64url").slice(0, 8);
      const fileName = `assets/route-preload-${hash}.js`;
      this.emitFile({ type: "asset", fileName, source });
      const html = bundle["index.html"];
      if (html?.type !== "asset" || typeof html.source !== "string") {
        return this.error("route-preload: index.html is not in the bundle yet");
      }
      const tag = `<script async fetchpriority="high" src="${base}${fileName}"></script>\n    `;
      html.source = html.source.replace(/<script type="module"/, `${tag}$&`);
    },
  };
}

/**
 * Writes `.vite/chunk-modules.json` into the build: for each chunk, the source files and packages
 * in it. bench/pages.ts reads it to show that public pages never download admin, dashboard or form
 * code. (@fastify/static does not serve dot folders.)
 */
function chunkModules(): Plugin {
  return {
    name: "partsworks:chunk-modules",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      for (const item of Object.values(bundle)) {
        if (item.type !== "chunk") continue;
        const modules = new Set<string>();
        for (const id of Object.keys(item.modules)) {
          const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
          if (pkg?.[1]) modules.add(pkg[1]);
          else if (id.startsWith("\0")) modules.add(id.slice(1));
          else modules.add(relative(id.split("?")[0] ?? id));
        }
        chunks[item.fileName] = [...modules].sort();
      }
      this.emitFile({
        type: "asset",
        fileName: ".vite/chunk-modules.json",
        source: `${JSON.stringify(chunks, null, 2)}\n`,
      });
    },
  };
}
