import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { NEWEST_PRODUCTS_COUNT, PRODUCTS_PAGE_SIZE } from "../contract/constants";
import {
  isPagePath,
  pageShellOf,
  pageShells,
  PAGE_END,
  PAGE_START,
  partSlug,
  paths,
  PUBLIC_URL_PLACEHOLDER,
  type PageShell,
} from "../contract/paths";
import type { Product, ProductListItem } from "../contract/products";
import { hasSessionCookie } from "./auth/session-reader";
import { partPageHtml } from "./part-page-html";
import { registerSitemaps, type SitemapParts } from "./sitemap";
import {
  compress,
  deflateOnce,
  insertBefore,
  joinedPage,
  replaceBetween,
  sendHtml,
  serverRenderer,
  type CompressedHtml,
  type DeflatedOnce,
  type ServerRender,
} from "./html-pages";
import { escapeHtml } from "./page-head";

export interface WebAppOptions {
  webDistDir: string;
  /** The store's address: canonical links, Open Graph URLs and the sitemap are built on it. */
  publicUrl: string;
  currency: string;
  /**
   * How long a pre-rendered page waits for the products it lists (normally answered from the
   * catalog's memory at once) before it goes out with the last structured data it had: a slow or
   * frozen database does not hold the store's pages (issue 30, item 9). `PAGE_DATA_WAIT_MS`.
   */
  structuredDataWaitMs: number;
  /** The newest products, for the structured data of the pages that list them. */
  newestProducts: (limit: number) => Promise<Product[]>;
  /** Part pages and the sitemap's part addresses (docs/catalog.md "Part pages"). */
  parts: {
    /** The cached API answer of the part at this address (lower-case), if there is one. */
    answer: (slug: string) => Promise<Buffer | undefined>;
    /** Where a part now lives whose old address this is (renamed), if any. */
    currentAddress: (slug: string) => Promise<string | undefined>;
    sitemap: SitemapParts;
  };
  /**
   * The catalog's cached answer to an API read (path and query as the browser sends them), if it
   * has one: All products is rendered for a visitor with its first page when the cache holds it.
   */
  cachedList?: (url: string) => { body: Buffer; total: number } | undefined;
  /**
   * Whether a request is in the default market (docs/pricing.md "The market chosen"): the cached
   * answers `cachedList` gives are the default market's, so a visitor in another market gets the
   * page without them (their browser asks in their market). Absent: everyone is.
   */
  inDefaultMarket?: (req: FastifyRequest) => Promise<boolean>;
}

/**
 * Serves the built single-page app. A public page the build pre-rendered (`pages/<name>.html`,
 * scripts/prerender-pages.ts) is answered with its own HTML when asked for without a query
 * string: that HTML shows the page, and preloads the data, as they are with no parameters; the
 * store's address and the page's structured data (JSON-LD of the products it lists) are filled in
 * here. Any other page path gets `index.html`, and the app renders it in the browser; a path that
 * is no page of the app (contract/paths.ts) gets it too, with status 404 (the app shows the
 * not-found page).
 */
export async function registerWebApp(app: FastifyInstance, opts: WebAppOptions): Promise<void> {
  const { webDistDir } = opts;
  const publicUrl = opts.publicUrl.replace(/\/+$/, "");
  const built = existsSync(path.join(webDistDir, "index.html"));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // A route per file (wildcard: false) costs memory: none for the compressed forms, which
      // are found beside the file they compress, nor for the page templates answered below.
      globIgnore: ["**/*.br", "**/*.gz", "pages/**", "shells/**"],
      setHeaders(reply, filePath) {
        reply.header("cache-control", cacheControlFor(filePath));
      },
    });
  }
  const prerendered = prerenderedPages(webDistDir, publicUrl, (pagePath) =>
    latestWithin(opts.structuredDataWaitMs, async () => {
      try {
        return itemListJsonLd(await listedProducts(pagePath, opts), publicUrl, opts.currency);
      } catch (err) {
        app.log.warn({ err }, "structured data kept as it was: the products could not be read");
        throw err;
      }
    }),
  );
  const shells = pageShellFiles(webDistDir);
  const renderer = serverRenderer(webDistDir, (err) =>
    app.log.error({ err }, "the server-side renderer could not be loaded"),
  );
  const allProductsForVisitors = renderAllProducts(renderer, opts.cachedList, (err) =>
    app.log.error({ err }, "All products could not be rendered with its products"),
  );

  registerSitemaps(app, { publicUrl, parts: opts.parts.sitemap });
  const partPages = partPageHtml({
    webDistDir,
    publicUrl,
    renderer,
    onError: (err) => app.log.error({ err }, "a part page could not be rendered"),
  });
  /**
   * Whether the request is in the default market (`inDefaultMarket`), the one the pages are
   * rendered with prices for. When that cannot be known (the markets unreadable: the database
   * away), no: the page goes out without its prices, and the app asks for them in the buyer's
   * market.
   */
  const defaultMarketOf = async (req: FastifyRequest): Promise<boolean> =>
    opts.inDefaultMarket ? opts.inDefaultMarket(req).catch(() => false) : true;
  const partShell = shells.get("part");

  // A part's public page: rendered here for everyone (docs/catalog.md "Part pages"). An address
  // in other letters, or of a renamed part, leads to the part's own (301); none, to the shell
  // with 404 (the app says the part does not exist).
  app.get<{ Params: { slug: string } }>(
    paths.part.pattern,
    { schema: { hide: true } },
    async (req, reply) => {
      const asked = req.params.slug;
      const slug = asked.toLowerCase();
      const known = /^[a-z0-9-]{1,200}$/.test(slug);
      const answer = known ? await opts.parts.answer(slug) : undefined;
      if (answer && slug === asked) {
        // Rendered with the default market's prices: another market's visitor gets the shell,
        // and the app asks for the part in their market.
        const page = (await defaultMarketOf(req)) ? await partPages.page(answer) : undefined;
        if (page) return sendHtml(req, reply, page);
      } else {
        const current = !known ? undefined : answer ? slug : await opts.parts.currentAddress(slug);
        if (current !== undefined) {
          const query = req.url.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
          return reply.redirect(`${paths.part.to(current)}${query}`, 301);
        }
        reply.code(404);
      }
      if (!built) return reply.type("text/plain").send("The web app is not built yet.");
      return partShell ? sendHtml(req, reply, partShell) : reply.sendFile("index.html");
    },
  );

  app.setNotFoundHandler(async (req, reply) => {
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
    const page = prerendered.get(pathname.replace(/\/+$/, "") || "/");
    // Asked only for All products, the page that shows prices: every other page goes out as
    // built, whatever the market and however the database is.
    const visitor = async () =>
      !hasSessionCookie(req.headers.cookie) && (await defaultMarketOf(req));
    if (page && query === undefined) {
      const structuredData = await page.structuredData();
      const withProducts =
        page.path === paths.allProducts && (await visitor())
          ? (await allProductsForVisitors(paths.allProducts))?.products
          : undefined;
      return sendHtml(req, reply, page.render(structuredData, withProducts));
    }
    // All products filtered (a category, a search): its cards in the HTML too, once the catalog
    // holds the answer; no structured data (that lists the newest products).
    if (page?.path === paths.allProducts && (await visitor())) {
      const rendered = await allProductsForVisitors(`${paths.allProducts}?${query}`);
      if (rendered) return sendHtml(req, reply, page.filtered(rendered.products, rendered.request));
    }
    if (!isPagePath(pathname)) return reply.code(404).sendFile("index.html");
    const shell = shells.get(pageShellOf(pathname)!);
    return shell ? sendHtml(req, reply, shell) : reply.sendFile("index.html");
  });
}

interface PrerenderedPage {
  path: string;
  /** The page's JSON-LD: fresh, or the last read when the database is slow (see below). */
  structuredData: () => Promise<string>;
  /** The page, or with the HTML of `withProducts` in place of its own (All products). */
  render: (structuredData: string, withProducts?: string) => CompressedHtml;
  /**
   * The page with `products` in place of its own, preloading `productsRequest` in place of its
   * own list's, and no structured data, made per request (All products filtered): only those two
   * are compressed anew (`joinedPage`).
   */
  filtered: (products: string, productsRequest: string) => CompressedHtml;
}

/**
 * `read`'s answer if it comes within `waitMs`, else the last answer it gave ("" before the
 * first). One read at a time: while one is under way, callers share it rather than start more
 * (a frozen database is not sent a read per page view); a failed read keeps the last answer.
 */
export function latestWithin(waitMs: number, read: () => Promise<string>): () => Promise<string> {
  let last = "";
  let reading: Promise<string> | undefined;
  return async () => {
    reading ??= read()
      .then(
        (fresh) => (last = fresh),
        () => last,
      )
      .finally(() => (reading = undefined));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(last), waitMs);
    });
    try {
      return await Promise.race([reading, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The pre-rendered All products' preload of its list (the first page, newest first). */
const LIST_PRELOAD = /<link rel="preload" as="fetch" crossorigin href="\/api\/products[^"]*">/;

/**
 * Page path → its pre-rendered file, read once: `pages/index.html` is `/`, `pages/blogs.html`
 * `/blogs`. The store's address is filled in at start-up; the structured data on each request,
 * with the compressed forms kept until it changes.
 */
function prerenderedPages(
  webDistDir: string,
  publicUrl: string,
  structuredDataOf: (pagePath: string) => () => Promise<string>,
): Map<string, PrerenderedPage> {
  const dir = path.join(webDistDir, "pages");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".html")) : [];
  return new Map(
    files.map((file) => {
      const name = file.slice(0, -".html".length);
      const pagePath = name === "index" ? "/" : `/${name}`;
      // Split and joined, not replaced: a replacement string reads `$&`, `$'`... as patterns.
      const html = readFileSync(path.join(dir, file), "utf8")
        .split(PUBLIC_URL_PLACEHOLDER)
        .join(publicUrl);
      // The last of each form (with products or without), compressed once.
      const last = new Map<boolean, { data: string; products?: string; html: CompressedHtml }>();
      const render = (data: string, products?: string) => {
        const kept = last.get(products !== undefined);
        if (kept?.data === data && kept.products === products) return kept.html;
        let page = data ? insertBefore(html, "</head>", data) : html;
        if (products !== undefined) page = replaceBetween(page, PAGE_START, PAGE_END, products);
        const made = { data, products, html: compress(page) };
        last.set(products !== undefined, made);
        return made.html;
      };
      // Cut once around the list's preload (when the page has one) and the page's content, each
      // piece deflated once.
      const preloadAt = LIST_PRELOAD.exec(html);
      const from = html.indexOf(PAGE_START) + PAGE_START.length;
      let cut: { head: DeflatedOnce; tail?: DeflatedOnce; end: DeflatedOnce } | undefined;
      const filtered = (products: string, productsRequest: string) => {
        const once = (text: string) => deflateOnce(Buffer.from(text));
        cut ??= {
          head: once(html.slice(0, preloadAt?.index ?? from)),
          tail: preloadAt
            ? once(html.slice(preloadAt.index + preloadAt[0].length, from))
            : undefined,
          end: once(html.slice(html.indexOf(PAGE_END, from))),
        };
        const preload = `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(productsRequest)}">`;
        return joinedPage([
          cut.head,
          ...(cut.tail ? [Buffer.from(preload), cut.tail] : []),
          Buffer.from(products),
          cut.end,
        ]);
      };
      return [
        pagePath,
        { path: pagePath, structuredData: structuredDataOf(pagePath), render, filtered },
      ];
    }),
  );
}

/**
 * All products as a visitor without a session sees it, its first page of product cards in the
 * HTML (issue 24: the cards were the page's largest paint, and waited for the app's code and the
 * data): rendered by the build's server-side bundle of src/web/prerender.tsx, from the catalog's
 * cached answer to the very request the page's code makes, so the cards are the ones the app
 * then shows. Undefined (the pre-rendered page with its skeletons) while the cache has no answer
 * (the browser's own request fills it), without that bundle (a development server), or if the
 * render fails. A signed-in customer never gets it: their prices may be their company's. One
 * render per cached answer; the bundle (React's server renderer and the app's public pages) is
 * loaded at the first.
 */
function renderAllProducts(
  renderer: () => Promise<ServerRender | undefined>,
  cachedList: WebAppOptions["cachedList"],
  onError: (err: unknown) => void,
): (url: string) => Promise<{ products: string; request: string } | undefined> {
  if (!cachedList) return async () => undefined;
  const rendered = new WeakMap<Buffer, Promise<string | undefined>>();
  return async (url) => {
    // A bundle that cannot be loaded is told once; the page keeps its skeletons.
    const ssr = await renderer();
    if (!ssr) return undefined;
    const request = ssr.firstProductsRequest(url);
    const answer = cachedList(request);
    if (!answer) return undefined;
    let html = rendered.get(answer.body);
    if (!html) {
      const items = JSON.parse(answer.body.toString("utf8")) as ProductListItem[];
      html = ssr.renderWithProducts(url, { items, total: answer.total }).catch((err: unknown) => {
        onError(err);
        return undefined;
      });
      rendered.set(answer.body, html);
    }
    const products = await html;
    return products === undefined ? undefined : { products, request };
  };
}

/** The shells of the pages that are not pre-rendered (`shells/<name>.html`), compressed once. */
function pageShellFiles(webDistDir: string): Map<PageShell | undefined, CompressedHtml> {
  const shells = new Map<PageShell | undefined, CompressedHtml>();
  for (const name of Object.keys(pageShells) as PageShell[]) {
    const file = path.join(webDistDir, "shells", `${name}.html`);
    if (existsSync(file)) shells.set(name, compress(readFileSync(file, "utf8")));
  }
  return shells;
}

/** The products a pre-rendered page lists when opened without a search or paging. */
function listedProducts(pagePath: string, opts: WebAppOptions): Promise<Product[]> {
  if (pagePath === paths.allProducts) return opts.newestProducts(PRODUCTS_PAGE_SIZE);
  if (pagePath === paths.home || pagePath === paths.homeAlias) {
    return opts.newestProducts(NEWEST_PRODUCTS_COUNT);
  }
  return Promise.resolve([]);
}

/** The products a page lists, as schema.org structured data (an ItemList of Products). */
function itemListJsonLd(products: Product[], publicUrl: string, currency: string): string {
  if (products.length === 0) return "";
  const data = {
    "@context": "https://schema.org",
    "@type": "ItemList",
    itemListElement: products.map((p, i) => ({
      "@type": "ListItem",
      position: i + 1,
      item: {
        "@type": "Product",
        name: p.name,
        description: p.shortDescription,
        image: new URL(p.img, publicUrl).href,
        url: `${publicUrl}${paths.part.to(partSlug(p.partNumber, p.name))}`,
        offers: {
          "@type": "Offer",
          price: p.price.toFixed(2),
          priceCurrency: currency,
          availability: `https://schema.org/${p.availableQuantity > 0 ? "InStock" : "OutOfStock"}`,
        },
      },
    })),
  };
  // `<` escaped so no product text can close the script element.
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return `<script type="application/ld+json">${json}</script>`;
}

/** Hashed build assets never change; HTML must be revalidated so a deploy shows at once. */
function cacheControlFor(filePath: string): string {
  if (filePath.includes(`${path.sep}assets${path.sep}`))
    return "public, max-age=31536000, immutable";
  if (filePath.endsWith(".html")) return "no-cache";
  return "public, max-age=3600";
}
