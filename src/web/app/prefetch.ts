import { sessionQueryOptions } from "../lib/session";
import { siteConfigQueryOptions } from "../lib/use-site-config";
import { queryClient } from "./query-client";

/**
 * Every page shows who is signed in and prices in the store's currency: main.tsx asks for both
 * before the first render. (The build also lists these requests in the HTML as preloads, so the
 * browser starts them before the JavaScript has arrived: scripts/prerender-pages.ts.)
 */
export const prefetchAppData = () =>
  Promise.all([
    queryClient.prefetchQuery(sessionQueryOptions),
    queryClient.prefetchQuery(siteConfigQueryOptions),
  ]);
