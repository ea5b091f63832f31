import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { queryClient } from "./app/query-client";
import { sessionQueryOptions } from "./lib/session";
import { siteConfigQueryOptions } from "./lib/use-site-config";
import "./styles.css";

// Every page shows who is signed in and prices in the store's currency: ask for both now, while
// the page's code is still on its way, rather than once it has rendered.
void queryClient.prefetchQuery(sessionQueryOptions);
void queryClient.prefetchQuery(siteConfigQueryOptions);

const container = document.getElementById("root");
if (!container) throw new Error("#root is missing from index.html");
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
