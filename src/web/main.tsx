import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { prefetchAppData } from "./app/prefetch";
import { preloadRoute } from "./app/router";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("#root is missing from index.html");

// Public pages arrive pre-rendered (scripts/prerender-pages.ts), with their data requests already
// under way (preloaded). The first render waits for the page's code, and for the data unless that
// takes longer than DATA_WAIT_MS, so that it replaces the pre-rendered page in one step with the
// page as it will stay: no spinner in between, and no second render when the data lands. (If the
// code cannot be loaded, the page's error boundary says so.) It is a transition: React renders in
// slices and the browser stays responsive meanwhile, as the page is already on screen.
const DATA_WAIT_MS = 300;
const appData = prefetchAppData();
const page = preloadRoute(window.location);
const dataOrTimeout = Promise.race([
  Promise.all([appData, page.data]),
  new Promise((resolve) => setTimeout(resolve, DATA_WAIT_MS)),
]);
void Promise.all([page.code.catch(() => undefined), dataOrTimeout]).then(() => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
