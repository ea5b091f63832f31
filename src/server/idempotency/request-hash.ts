import { createHash } from "node:crypto";

/**
 * JSON with every object's keys in order and `undefined` left out, so that one request written
 * with its fields in another order is the same request.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    return value === undefined ? "null" : JSON.stringify(value);
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return canonicalJson((value as { toJSON(): unknown }).toJSON());
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * What makes two requests with one key the same request: the route, the path's parameters and
 * the body as the route's schema read it (sha256, hex).
 */
export function requestHash(route: string, params: unknown, body: unknown): string {
  return createHash("sha256")
    .update(`${route}\n${canonicalJson(params ?? {})}\n${canonicalJson(body ?? null)}`)
    .digest("hex");
}
