import type { Location } from "react-router";

/** Where to go after signing in: the page the guard stopped, or ?from=, or home. Local paths only. */
export function returnToFrom(location: Location): string {
  const fromState = (location.state as { from?: string } | null)?.from;
  const fromQuery = new URLSearchParams(location.search).get("from");
  const target = fromState ?? fromQuery ?? "/";
  return target.startsWith("/") && !target.startsWith("//") ? target : "/";
}
