import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalPath, parsedCanonicalPath } from "./canonical-path";

// Characters a path can carry that the URL parser or the steps before it treat specially, and
// ordinary ones: the plain-path shortcut must never answer differently from the parse.
const pathCharacter = fc.constantFrom(..."/\\.%2eEaZ09-_~!$&'()*+,;=:@ \"#<>?`{}^|[]é\t");

/** What a function answered, or the error it threw (a tab makes the URL parser throw). */
const outcome = (f: () => string) => {
  try {
    return f();
  } catch (error) {
    return error instanceof Error ? `threw ${error.message}` : "threw";
  }
};

describe("canonicalPath", () => {
  it("answers as the parse does, for any path (plain ones skip the parse)", () => {
    fc.assert(
      fc.property(fc.array(pathCharacter, { maxLength: 24 }), (chars) => {
        const path = "/" + chars.join("");
        expect(outcome(() => canonicalPath(path))).toBe(outcome(() => parsedCanonicalPath(path)));
      }),
      { numRuns: 20_000 },
    );
  });

  it("keeps a plain path and rewrites the others", () => {
    expect(canonicalPath("/api/products/3f2a-b")).toBe("/api/products/3f2a-b");
    expect(canonicalPath("/api/products/")).toBe("/api/products/");
    expect(canonicalPath("/api//products")).toBe("/api/products");
    expect(canonicalPath("/api/./products")).toBe("/api/products");
    expect(canonicalPath("/api/x/../products")).toBe("/api/products");
    expect(canonicalPath("/%61pi")).toBe("/api");
    expect(canonicalPath("/a b")).toBe("/a%20b");
  });
});
