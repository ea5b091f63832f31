import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createServer, type Plugin, type Rolldown } from "vite";
import {
  canonicalPath,
  PAGE_END,
  PAGE_START,
  pageShells,
  PUBLIC_URL_PLACEHOLDER,
  type PageShell,
} from "../src/contract/paths";
import { escapeHtml, withHeadMeta } from "../src/server/page-head";
import type { PageMeta } from "../src/web/components/page-title";
import type * as PrerenderModule from "../src/web/prerender";

/**
 * Writes, for each public page, `pages/<name>.html` into the build (`/` is `index`): index.html
 * with the page already rendered in it (src/web/prerender.tsx), its title, and preload links for
 * the page's own code and for the API requests it makes as it starts. The server answers the
 * page's path with it (src/server/web-app.ts): a visitor sees the page before the JavaScript has
 * arrived, and the code and the data arrive together instead of one after the other. index.html
 * itself, which every other page gets, preloads the requests every page makes (the session).
 * `pages` maps each path to its route module; a module not in the build fails the build.
 */
export function prerenderPages(
  pages: Record<string, string>,
  /** Shells of pages that are not pre-rendered (contract/paths.ts `pageShells`): name → module. */
  shells: Record<PageShell, string>,
): Plugin {
  let root = "";
  let outDir = "";
  let base = "/";
  let configFile: string | undefined;
  const preloads = new Map<string, string[]>();
  return {
    name: "partsworks:prerender-pages",
    apply: (_config, env) => env.command === "build" && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      base = config.base;
      configFile = config.configFile;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (item): item is Rolldown.OutputChunk => item.type === "chunk",
      );
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const staticClosure = (start: Rolldown.OutputChunk, seen = new Set<string>()) => {
        if (!seen.has(start.fileName)) {
          seen.add(start.fileName);
          for (const f of start.imports) staticClosure(byFile.get(f)!, seen);
        }
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return this.error("prerender-pages: no entry chunk");
      const inHtml = staticClosure(entry); // index.html loads these already
      const modules = [
        ...Object.entries(pages),
        ...Object.entries(shells).map(
          ([name, module]) => [pageShells[name as PageShell], module] as const,
        ),
      ];
      for (const [url, module] of modules) {
        const file = path.resolve(import.meta.dirname, "..", module);
        const chunk = chunks.find((c) => c.facadeModuleId === file);
        if (!chunk)
          return this.error(`prerender-pages: ${module} (for ${url}) is not in the build`);
        preloads.set(
          url,
          [...staticClosure(chunk)].filter((f) => !inHtml.has(f)),
        );
      }
    },
    async closeBundle() {
      const indexHtml = path.join(outDir, "index.html");
      const template = await readFile(indexHtml, "utf8");
      if (!template.includes('<div id="root"></div>') || !template.includes("</head>")) {
        throw new Error('prerender-pages: index.html has no </head> or no <div id="root"></div>');
      }
      const server = await createServer({
        configFile,
        root,
        logLevel: "error",
        appType: "custom",
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      try {
        const { prerender, startupRequests } = (await server.ssrLoadModule(
          "/prerender.tsx",
        )) as typeof PrerenderModule;
        const everyPage = await startupRequests();
        const head = (links: string[]) =>
          template.replace(
            "</head>",
            `${[...links, ...everyPage.map(fetchPreload)].join("")}</head>`,
          );
        await writeFile(indexHtml, head([]));
        // The page's HTML in index.html: React starts its output with preload links for the
        // pictures it shows (the landing page's hero is its largest paint): those go first,
        // before scripts and data take the browser's few connections. Then the page's code and
        // data, then what every page asks.
        const render = (
          url: string,
          { pictures, html }: { pictures: string; html: string },
          data: string[],
        ) => {
          return head([
            ...(preloads.get(url) ?? []).map(
              (f) => `  <link rel="modulepreload" crossorigin href="${base}${f}">\n  `,
            ),
            ...data.map(fetchPreload),
          ])
            .replace(/<script type="module"/, `${pictures}\n    $&`)
            .replace(
              '<div id="root"></div>',
              `<div id="root">${PAGE_START}${html}${PAGE_END}</div>`,
            );
        };
        await mkdir(path.join(outDir, "pages"), { recursive: true });
        for (const url of Object.keys(pages)) {
          const rendered = await prerender(url);
          const data = (await startupRequests(url)).filter((r) => !everyPage.includes(r));
          let page = render(url, rendered, data);
          if (rendered.meta) page = withMeta(page, url, rendered.meta);
          await writeFile(path.join(outDir, "pages", `${pageName(url)}.html`), page);
        }
        // Shells: the layout with its placeholders and the family's code; no data (it depends
        // on the page's address and the user), no meta (the app sets the title).
        await mkdir(path.join(outDir, "shells"), { recursive: true });
        for (const [name, url] of Object.entries(pageShells)) {
          const rendered = await prerender(url);
          const shell = await inlineStylesheets(render(url, rendered, []), outDir, base);
          await writeFile(path.join(outDir, "shells", `${name}.html`), shell);
        }
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * The page's title and description, its canonical link and Open Graph tags. The server fills in
 * the store's address (PUBLIC_URL_PLACEHOLDER), which the build does not know.
 */
const withMeta = (page: string, url: string, meta: PageMeta) =>
  withHeadMeta(page, { ...meta, url: `${PUBLIC_URL_PLACEHOLDER}${canonicalPath(url)}` });

/**
 * The stylesheets a page links, inlined: on a slow phone network every request costs seconds of
 * latency, and a linked stylesheet holds the first paint back until it has arrived.
 */
async function inlineStylesheets(page: string, outDir: string, base: string): Promise<string> {
  const links = [...page.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g)];
  for (const [tag, href] of links) {
    const css = await readFile(path.join(outDir, href!.slice(base.length)), "utf8");
    if (css.includes("</style")) throw new Error(`prerender-pages: ${href} cannot be inlined`);
    page = page.replace(tag, () => `<style>${css}</style>`);
  }
  return page;
}

/** The file a page's path is pre-rendered into, under `pages/`: `/` is `index`. */
const pageName = (url: string) => url.replace(/^\/+|\/+$/g, "") || "index";

// `crossorigin` makes it the same kind of request as the app's fetch (cors, same-origin
// credentials), so the browser hands the app the preloaded answer.
const fetchPreload = (url: string) =>
  `  <link rel="preload" as="fetch" crossorigin href="${escapeHtml(url)}">\n  `;
