import type { Location } from "react-router";

/** Where to go after signing in: the page the guard stopped, or ?from=, or home. Local paths only. */
export function returnToFrom(location: Location): string {
  const fromState = (location.state as { from?: unknown } | null)?.from;
  const fromQuery = new URLSearchParams(location.search).get("from");
  return localPath(typeof fromState === "string" ? fromState : (fromQuery ?? "/"));
}

/**
 * `to` as a path of this site (path, query, fragment), or "/" when it could lead elsewhere. The
 * browser decides, not a pattern: it reads `/\evil.test` as `//evil.test`, another site, and
 * skips tabs and newlines, and removes dot segments (`/..//evil.test` becomes `//evil.test`). Its
 * decoded form is held to the same rule, in case something on the way (a redirect, a router)
 * decodes it once: `/%5Cevil.test` goes home.
 */
export function localPath(to: string): string {
  const path = sameOriginPath(to);
  if (path === undefined) return "/";
  let decoded: string;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    return "/";
  }
  return sameOriginPath(decoded) === undefined ? "/" : path;
}

function sameOriginPath(to: string): string | undefined {
  if (!to.startsWith("/") || to.startsWith("//")) return undefined;
  const origin = window.location.origin;
  let url: URL;
  try {
    url = new URL(to, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  // The parser removes dot segments: `/..//evil.test` is the path `//evil.test`, which, followed
  // as a link, is another site (issue 49). The path given back must itself stay here.
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") || new URL(path, origin).origin !== origin ? undefined : path;
}
