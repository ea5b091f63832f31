import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { prefetchAppData } from "./app/prefetch";
import { preloadRoute } from "./app/router";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("#root is missing from index.html");

prefetchAppData();
// Public pages arrive pre-rendered (scripts/prerender-pages.ts). Render once the page's code is
// here, so that the first render replaces that HTML with the same page in one step, never with a
// spinner in between (if the code cannot be loaded, the page's error boundary says so). As a
// transition, React renders in slices and the browser stays responsive meanwhile: the page is
// already on screen.
void preloadRoute(window.location)
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(container);
    startTransition(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
  });
