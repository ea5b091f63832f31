import { useEffect } from "react";
import { prefetchRouteCode } from "./router";

/**
 * Starts downloading the code of a page as soon as a link to it is hovered, focused or touched:
 * the click follows a moment later, and the page opens without waiting for its code. Only code
 * (a page's data is asked for when it opens); loading is idempotent.
 */
export function usePreloadLinkedPages() {
  useEffect(() => {
    const onIntent = (e: Event) => {
      const link = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin) return;
      if (link.pathname.startsWith("/api/") || link.pathname === location.pathname) return;
      prefetchRouteCode(link.pathname);
    };
    const events = ["pointerover", "focusin", "touchstart"] as const;
    for (const type of events) document.addEventListener(type, onIntent, { passive: true });
    return () => {
      for (const type of events) document.removeEventListener(type, onIntent);
    };
  }, []);
}
