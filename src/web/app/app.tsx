import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { BrowserRouter, useLocation, useRoutes } from "react-router";
import { Notifications } from "../lib/notify";
import { queryClient } from "./query-client";
import { usePreloadLinkedPages } from "./preload-linked-pages";
import { preloadRoute, routes } from "./router";

function AppRoutes() {
  const location = useLocation();
  // Start the code of the page, its layouts and guards (and its data) all at once, before
  // rendering meets them one inside the other. A failed download shows in PageErrorBoundary.
  useMemo(() => void preloadRoute(location).code.catch(() => undefined), [location]);
  usePreloadLinkedPages();
  return useRoutes(routes, location);
}

export function App() {
  useEffect(() => {
    // The pre-rendered page is React's from here on (src/web/main.tsx): a click on it before this
    // landed on HTML that was then replaced. End-to-end tests wait for this mark.
    document.documentElement.dataset.live = "true";
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Notifications />
    </QueryClientProvider>
  );
}
