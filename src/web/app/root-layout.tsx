import { useIsFetching } from "@tanstack/react-query";
import { Suspense } from "react";
import { Outlet, useLocation } from "react-router";
import { PageSpinner } from "../components/spinner";
import { ShoppingMarketProvider } from "../features/pricing/components/market-picker";
import { Footer } from "./footer";
import { Navbar } from "./navbar";
import { useRouteCodeLoading } from "./route-code-loading";
import { PageErrorBoundary } from "./page-error-boundary";
import { useScrollRestoration } from "./scroll-restoration";

export function RootLayout() {
  const fetching = useIsFetching() > 0;
  const codeLoading = useRouteCodeLoading();
  const { pathname } = useLocation();
  useScrollRestoration();
  return (
    <div className="flex min-h-screen flex-col bg-base-100">
      {/* Above the sticky header when focused, so a keyboard user sees where Tab went. */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded-box focus:bg-primary focus:px-4 focus:py-2 focus:text-primary-content focus:outline-2 focus:outline-offset-2 focus:outline-primary"
      >
        Skip to content
      </a>
      <Navbar />
      <main id="main" className="flex-1">
        {/* Inside the main landmark (drawn at the top of the window): no content outside one. */}
        {(fetching || codeLoading) && (
          <div
            className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden"
            role="progressbar"
            aria-label="Loading"
          >
            <div className="h-full w-1/3 animate-[loading-bar_1s_ease-in-out_infinite] bg-secondary" />
          </div>
        )}
        <PageErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner />}>
            {/* A new address starts in the market the buyer shops in (docs/shipping.md). */}
            <ShoppingMarketProvider>
              <Outlet />
            </ShoppingMarketProvider>
          </Suspense>
        </PageErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}
