import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { errorCodes } from "../contract/errors";

/** The server's own source files (tests left out). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

// `HttpError` takes an `ErrorCode` (the compiler checks it); answers written as a literal
// `{ error: "…" }` (hooks that reply before a route: overload, cross-site, the error handler)
// are checked here, and every listed code is answered somewhere.
test("every error code the server answers is in the contract's list, and every listed code is answered", () => {
  const text = sources(import.meta.dirname)
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  const literal = new Set([...text.matchAll(/\berror: "([a-z_]+)"/g)].map((m) => m[1]!));
  const listed = new Set<string>(errorCodes);
  expect([...literal].filter((c) => !listed.has(c)).sort()).toEqual([]);
  const unused = errorCodes.filter((c) => !text.includes(`"${c}"`));
  expect(unused).toEqual([]);
});
