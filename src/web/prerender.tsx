// Build-time rendering of the public pages (scripts/prerender-pages.ts): the HTML a visitor sees
// before the JavaScript has arrived. No data is fetched here, so the places where products,
// reviews and the signed-in user go show their skeletons, as the app does while they load.
// The server renders All products again with its first page of products (`renderWithProducts`,
// from the build's server-side bundle of this module: src/server/web-app.ts), for visitors.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { PartPage } from "#contract/parts";
import type { ProductListItem } from "#contract/products";
import { renderToString } from "react-dom/server";
import { StaticRouter, useRoutes } from "react-router";
import { prefetchAppData } from "./app/prefetch";
import { productBrowserState, productsQueryOptions } from "./features/catalog/api/get-products";
import { partQueryOptions } from "./features/catalog/api/get-part";
import { apiUrl, toQueryString } from "./lib/api-client";
import { Prerendering } from "./lib/prerendering";
import { queryClient } from "./app/query-client";
import { loadRouteCode, preloadRoute, routes } from "./app/router";
import { PageMetaCollector, type PageMeta } from "./components/page-title";

function Routes() {
  return useRoutes(routes);
}

/** The first page of All products (opened without parameters), as the API answers it. */
export interface ProductsPage {
  items: ProductListItem[];
  total: number;
}

/**
 * `url` rendered to HTML: `pictures`, the preload links React puts first for the pictures the page
 * shows (they belong in the head), and `html`, the page itself; with `products`, All products
 * shows those instead of skeletons.
 */
export async function prerender(
  url: string,
  products?: ProductsPage,
  part?: PartPage,
  code: Promise<unknown> = loadRouteCode(url),
): Promise<{ pictures: string; html: string; meta?: PageMeta }> {
  await code;
  let meta: PageMeta | undefined;
  const client = new QueryClient();
  // In the cache under the key the page asks for: its cards render instead of skeletons.
  if (products) client.setQueryData(productsQueryOptions(productListQuery(url)).queryKey, products);
  if (part) client.setQueryData(partQueryOptions(part.slug).queryKey, part);
  const html = renderToString(
    <Prerendering value={true}>
      <PageMetaCollector value={(m) => (meta = m)}>
        <QueryClientProvider client={client}>
          <StaticRouter location={url}>
            <Routes />
          </StaticRouter>
        </QueryClientProvider>
      </PageMetaCollector>
    </Prerendering>,
  );
  // A part that failed or was not ready is left for the browser to render (a marker says so):
  // then this page's HTML would show a spinner or nothing at all there.
  if (/<!--\$[!?]-->/.test(html))
    throw new Error(`pre-rendering ${url}: part of it did not render`);
  const [, pictures = "", page = ""] = /^((?:<link [^>]*\/>)*)([\s\S]*)$/.exec(html)!;
  return { pictures, html: page, meta };
}

const productListQuery = (url: string) =>
  productBrowserState(new URL(url, "http://prerender.invalid").searchParams).query;

/** The API request for the products All products (`url`) lists first, as the app sends it. */
export const firstProductsRequest = (url: string) =>
  apiUrl(`/products${toQueryString(productListQuery(url))}`);

/**
 * All products (`url`, opened without parameters) with its first page of products, for a visitor
 * (no prices of their own): the page's HTML (its pictures are in the page, seen as it is read).
 */
export async function renderWithProducts(url: string, products: ProductsPage): Promise<string> {
  return (await prerender(url, products)).html;
}

/**
 * A part's public page (`/parts/{slug}`) with its data, for anyone (the server fills its address
 * and structured data in: src/server/part-page-html.ts): the page's HTML and its title and
 * description, and the preload links of its pictures (for the head).
 */
export const renderPart = (url: string, part: PartPage) =>
  // Every part's address leads to the same page: its code is looked for once (matching the
  // address against the routes took 1 ms of each render).
  prerender(url, undefined, part, (partPageCode ??= loadRouteCode(url)));
let partPageCode: Promise<unknown> | undefined;

/**
 * The API requests the app makes as it starts on `url` (before its first render: main.tsx), or
 * on any page when `url` is omitted, recorded by standing in for fetch.
 */
export async function startupRequests(url?: string): Promise<string[]> {
  const requests: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input) => {
    requests.push(String(input));
    return new Promise<Response>(() => {}); // never answered; the recording client is discarded
  };
  try {
    queryClient.clear();
    void prefetchAppData();
    if (url !== undefined) await preloadRoute(new URL(url, "http://prerender.invalid")).code;
  } finally {
    globalThis.fetch = realFetch;
    queryClient.clear();
  }
  return requests;
}
