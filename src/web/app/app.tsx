import { QueryClientProvider } from "@tanstack/react-query";
import { useMemo } from "react";
import { BrowserRouter, useLocation, useRoutes } from "react-router";
import { Notifications } from "../lib/notify";
import { queryClient } from "./query-client";
import { preloadRoute, routes } from "./router";

function AppRoutes() {
  const location = useLocation();
  // Before rendering meets them one inside the other (see preloadRoute).
  useMemo(() => preloadRoute(location).code.catch(() => undefined), [location]); // failures: PageErrorBoundary
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
