import { StrictMode } from "react";
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
// spinner in between. (If the code cannot be loaded, the page's error boundary says so.)
void preloadRoute(window.location)
  .catch(() => undefined)
  .then(() =>
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
