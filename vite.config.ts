import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { prerenderPages } from "./scripts/prerender-pages";

// The web app lives in src/web; static files (images) in /public; the build goes to dist/web,
// which the Fastify server serves in production.
export default defineConfig(({ isSsrBuild }) => ({
  root: "src/web",
  publicDir: "../../public",
  plugins: [
    react(),
    tailwindcss(),
    // Public pages, rendered at build time (scripts/prerender-pages.ts): path → route module.
    // Not /login and /signup: their forms are what a visitor uses first, and they work only once
    // the app runs.
    prerenderPages(
      {
        "/": "src/web/app/routes/home.tsx",
        "/home": "src/web/app/routes/home.tsx",
        "/allproducts": "src/web/app/routes/all-products.tsx",
        "/blogs": "src/web/app/routes/blogs.tsx",
        "/review": "src/web/app/routes/review.tsx",
        "/myprotfolio": "src/web/app/routes/portfolio.tsx",
      },
      // Shells (layout placeholders) of the pages behind sign-in: what a phone on a slow network
      // shows instead of a blank page while the app's code arrives.
      {
        product: "src/web/app/routes/product.tsx",
        // The part page's own HTML comes from the server (src/server/part-page-html.ts), in this
        // shell's place.
        part: "src/web/app/routes/part.tsx",
        dashboard: "src/web/app/routes/dashboard-layout.tsx",
      },
    ),
    chunkModules(),
    reactRouterTreeShaking(),
    stylesheetOnlyPreload(),
  ],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    // The server-side bundle (`npm run build:web-ssr`: src/web/prerender.tsx, which the server
    // renders All products with) needs no copy of the static files.
    copyPublicDir: !isSsrBuild,
    // Keep inline data URIs out of the build: the CSP allows scripts from 'self' only.
    assetsInlineLimit: 0,
    // No preload helper in the bundle (about 1 KB gzip on every page): pre-rendered pages list
    // their modules as <link rel="modulepreload"> (scripts/prerender-pages.ts), and the router
    // asks for all of a page's route modules at once (src/web/app/router.tsx, preloadRoute).
    modulePreload: false,
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
            // What All products uses beside its own module and the public pieces (search, a
            // modal, the URL's state, the vehicle selector), also shared by the product page and
            // the admin's lists: one file instead of five, each a round trip on a phone.
            {
              name: "browse",
              test: /src[\\/]web[\\/](components[\\/](modal|search-form)|lib[\\/]use-url-params|features[\\/]fitment[\\/](api[\\/]fitment|components[\\/]vehicle-selector))\.tsx?$/,
            },
            // Small pieces the public pages share, with the product cards' cart button: one file
            // instead of nine.
            {
              name: "public",
              test: /src[\\/]web[\\/](components[\\/](page-title|query-error|pagination)|lib[\\/](format|use-site-config)|features[\\/]catalog[\\/](api[\\/]get-products|components[\\/]product-card(-skeleton)?)|features[\\/]cart[\\/]components[\\/]add-to-cart-button|features[\\/]reviews[\\/]components[\\/]review-skeletons)\.tsx?$|[\\/]queryOptions\.js$/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { "/api": `http://localhost:${process.env.API_PORT ?? "3001"}` },
  },
}));

/**
 * Vite wraps every dynamic import in its preload helper, which with `modulePreload: false` still
 * ships whole (about 0.6 KB gzip on every page: module preload links, a CSP nonce lookup, error
 * events). Here the dependencies it is handed are stylesheets only (a lazy chunk's own CSS, or the
 * app's, already on the page), so this smaller helper adds a missing stylesheet, waits for it, and
 * then runs the import; a stylesheet that fails to load fails the import, as Vite's would.
 */
function stylesheetOnlyPreload(): Plugin {
  const helperId = "\0vite/preload-helper.js";
  const helper = `const loading = {};
export const __vitePreload = (load, deps) =>
  Promise.all(
    (deps ?? []).map((dep) => {
      const href = new URL("/" + dep, location.href).href;
      if (loading[href] || [...document.styleSheets].some((s) => s.href === href)) return loading[href];
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
      document.head.appendChild(link);
      return (loading[href] = new Promise((resolve, reject) => {
        link.onload = resolve;
        link.onerror = () => reject(new Error("Unable to load the stylesheet " + href));
      }));
    }),
  ).then(load);
`;
  return {
    name: "partsworks:stylesheet-only-preload",
    apply: "build",
    enforce: "pre",
    load: {
      filter: { id: /^\0vite\/preload-helper\.js$/ },
      handler: (id) => (id === helperId ? helper : null),
    },
  };
}

/**
 * React Router's bundle makes its components and contexts with `React.forwardRef(...)`,
 * `React.memo(...)` and `React.createContext(...)` calls that carry no pure annotation, and names
 * them with `X.displayName = "..."` statements; a bundler must keep every one of those, and what
 * they reference — `<Form>` and its submission helpers, the data router's routes — though this app
 * uses none of it. This marks those calls pure and drops the names (only React DevTools reads
 * them), so tree-shaking removes what is unused: about 4 KB gzip on every page (React Router
 * 7.18.5: the entry chunk is 96.0 KB with it, 100.0 KB without). Rolldown's
 * `treeshake.manualPureFunctions` with the same names saves nothing (measured), and the landing
 * page's budget is 100 KB, so the rewrite stays. If a new React Router release no longer matches,
 * the build only grows; bench/pages.ts shows it.
 */
function reactRouterTreeShaking(): Plugin {
  return {
    name: "partsworks:react-router-tree-shaking",
    apply: "build",
    transform: {
      filter: { id: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/ },
      handler(code) {
        return code
          .replace(/\b(React\d*\.(?:forwardRef|memo|createContext)\()/g, "/* @__PURE__ */ $1")
          .replace(/^\w+\.displayName = "[^"\n]*";$/gm, "");
      },
    },
  };
}

const repoRoot = import.meta.dirname;
const relative = (id: string) => path.relative(repoRoot, id).split(path.sep).join("/");

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
