import { QueryClientProvider } from "@tanstack/react-query";
import { useMemo } from "react";
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
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Notifications />
    </QueryClientProvider>
  );
}
