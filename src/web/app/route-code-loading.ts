import { useSyncExternalStore } from "react";

// Route code that a page being rendered is waiting for, so the progress bar runs while it is on
// its way: a navigation keeps the old page on screen until then, and on a slow network that can
// take seconds. Code preloaded in the background (links in view) does not count.
const waiting = new Set<Promise<unknown>>();
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Called by a route component that has to wait for `download` before it can render. */
export function waitingForCode(download: Promise<unknown>): void {
  if (waiting.has(download)) return;
  waiting.add(download);
  // Told after the render that found it missing: a store may not change during a render.
  queueMicrotask(notify);
  const done = () => {
    waiting.delete(download);
    notify();
  };
  download.then(done, done);
}

/** Whether a page is waiting for its code. */
export function useRouteCodeLoading(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => waiting.size > 0,
    () => false,
  );
}
