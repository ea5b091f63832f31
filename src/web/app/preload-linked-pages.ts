import { useEffect } from "react";
import { prefetchRouteCode } from "./router";

/**
 * Starts downloading the code of the pages the current page links to: at once when a link is
 * hovered, focused or touched (the click follows), and, when the browser is idle, for links that
 * are on screen. Only code: a page's data is asked for when it opens. Loading is idempotent.
 */
export function usePreloadLinkedPages() {
  useEffect(() => {
    const preloadFor = (target: EventTarget | null) => {
      const link = target instanceof Element ? target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin) return;
      if (link.pathname.startsWith("/api/") || link.pathname === location.pathname) return;
      prefetchRouteCode(link.pathname);
    };
    const onIntent = (e: Event) => preloadFor(e.target);
    const events = ["pointerover", "focusin", "touchstart"] as const;
    for (const type of events) document.addEventListener(type, onIntent, { passive: true });

    const inView = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        inView.unobserve(entry.target);
        preloadFor(entry.target);
      }
    });
    const watch = (root: ParentNode) =>
      root.querySelectorAll('a[href^="/"]').forEach((a) => inView.observe(a));
    const added = new MutationObserver((records) => {
      for (const r of records) r.addedNodes.forEach((n) => n instanceof Element && watch(n));
    });
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    const cancelIdle = window.cancelIdleCallback ?? window.clearTimeout;
    const start = idle(() => {
      watch(document);
      added.observe(document.body, { childList: true, subtree: true });
    });
    return () => {
      for (const type of events) document.removeEventListener(type, onIntent);
      cancelIdle(start);
      inView.disconnect();
      added.disconnect();
    };
  }, []);
}
