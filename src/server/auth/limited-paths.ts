import type { Auth } from "./auth";

/**
 * Body fields that make an endpoint worth limiting: a password or a one-time code is checked (a
 * guess costs us a hash and tells an attacker something), or mail goes to an address (a flood
 * of reset or verification messages to someone's inbox).
 */
const GUESSED_OR_MAILED = new Set(["password", "currentPassword", "newPassword", "code", "email"]);

/** The zod (v4) schema's field names, through optional, nullable and intersection wrappers. */
function fieldNames(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case "object":
      return Object.keys(def.shape as object);
    case "optional":
    case "nullable":
      return fieldNames(def.innerType);
    case "intersection":
      return [...fieldNames(def.left), ...fieldNames(def.right)];
    default:
      return [];
  }
}

/**
 * The Better Auth paths (under /api/auth) our limiter counts, read from what each endpoint
 * takes, so that an endpoint a plugin adds (two-factor's `get-totp-uri`, `verify-password`) is
 * limited without anyone remembering to list it.
 */
export function limitedAuthPaths(auth: Auth, basePath = "/api/auth"): string[] {
  const paths: string[] = [];
  for (const endpoint of Object.values(auth.api as Record<string, unknown>)) {
    const { path, options } = endpoint as {
      path?: string;
      options?: { method?: string | string[]; body?: unknown };
    };
    if (!path || !options) continue;
    const methods = [options.method ?? []].flat();
    if (!methods.includes("POST") && !methods.includes("*")) continue;
    if (fieldNames(options.body).some((f) => GUESSED_OR_MAILED.has(f))) paths.push(basePath + path);
  }
  return paths;
}

/** Whether a (canonical) request path is one of `paths`, whose `:name` segments match any one. */
export function pathMatcher(paths: string[]): (pathname: string) => boolean {
  const exact = new Set(paths.filter((p) => !p.includes(":")));
  const patterns = paths
    .filter((p) => p.includes(":"))
    .map((p) => new RegExp(`^${p.replace(/:[^/]+/g, "[^/]+")}$`));
  return (pathname) => exact.has(pathname) || patterns.some((re) => re.test(pathname));
}
