import { use, type ComponentType } from "react";
import { waitingForCode } from "./route-code-loading";

export interface LazyRoute {
  /** Renders the component, suspending until its code has arrived. */
  Component: ComponentType;
  /** Starts loading the code, once. (A failed download stays failed: the page offers a reload.) */
  preload: () => Promise<unknown>;
  /**
   * Loads the code in the background, ahead of need: a failure is forgotten unless a page was
   * already waiting for it, so that opening the page later tries again.
   */
  prefetch: () => void;
}

/**
 * A page, layout or guard whose code loads on first use, so public pages never download dashboard
 * code. Unlike React.lazy, a component whose code was preloaded renders at once, without
 * suspending: the first render can then replace the pre-rendered page in one step (main.tsx).
 * `name` is the module's export to render: `lazyRoute(() => import("./routes/x"), "XRoute")`
 * bundles smaller than `(await import("./routes/x")).XRoute`, which the bundler spells out as a
 * destructuring per route (about 0.4 KB gzip over the route table, in the landing page's budget).
 */
export function lazyRoute<M extends Record<K, ComponentType>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyRoute {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  let awaited = false;
  const preload = () => (loading ??= load().then((module) => (loaded = module[name])));
  const prefetch = () => {
    if (loaded) return;
    preload().catch(() => {
      if (!awaited) loading = undefined;
    });
  };
  function Component() {
    if (!loaded) {
      awaited = true;
      waitingForCode(preload());
    }
    const Loaded = loaded ?? use(preload());
    return <Loaded />;
  }
  return { Component, preload, prefetch };
}
