import { useIsFetching } from "@tanstack/react-query";
import { Outlet, ScrollRestoration, useNavigation } from "react-router";
import { Footer } from "./footer";
import { Navbar } from "./navbar";

export function RootLayout() {
  const navigating = useNavigation().state !== "idle";
  const fetching = useIsFetching() > 0;
  return (
    <div className="flex min-h-screen flex-col bg-base-100">
      {(navigating || fetching) && (
        <div
          className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden"
          role="progressbar"
          aria-label="Loading"
        >
          <div className="h-full w-1/3 animate-[loading-bar_1s_ease-in-out_infinite] bg-secondary" />
        </div>
      )}
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
        Skip to content
      </a>
      <Navbar />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
