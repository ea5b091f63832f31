// Build-time rendering of the public pages (scripts/prerender-pages.ts): the HTML a visitor sees
// before the JavaScript has arrived. No data is fetched here, so the places where products,
// reviews and the signed-in user go show their skeletons, as the app does while they load.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { StaticRouter, useRoutes } from "react-router";
import { prefetchAppData } from "./app/prefetch";
import { Prerendering } from "./lib/prerendering";
import { queryClient } from "./app/query-client";
import { loadRouteCode, preloadRoute, routes } from "./app/router";
import { PageMetaCollector, type PageMeta } from "./components/page-title";

function Routes() {
  return useRoutes(routes);
}

export async function prerender(url: string): Promise<{ html: string; meta?: PageMeta }> {
  await loadRouteCode(url);
  let meta: PageMeta | undefined;
  const html = renderToString(
    <Prerendering value={true}>
      <PageMetaCollector value={(m) => (meta = m)}>
        <QueryClientProvider client={new QueryClient()}>
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
  return { html, meta };
}

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
