import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { API_KEY_PATTERN, apiKeyMessages as say } from "../../contract/api-keys";
import { bearerKeyOf } from "../http/request-context";
import { hashApiKey, keyMatches, newApiKey, prefixOf, randomBase62 } from "./secret";
import { entryScopes, productChangeScopes } from "./scopes";

// The key's shape, its hash and the parts of a request that name it (docs/api-keys.md).

describe("a new key", () => {
  test("is pw_, 8 letters and digits (its prefix), _ and 43 more; only its SHA-256 is kept", () => {
    const made = newApiKey();
    expect(made.key).toMatch(API_KEY_PATTERN);
    expect(made.prefix).toMatch(/^pw_[0-9A-Za-z]{8}$/);
    expect(made.key.startsWith(`${made.prefix}_`)).toBe(true);
    expect(made.secretHash).toBe(createHash("sha256").update(made.key).digest("hex"));
    expect(made.secretHash).not.toContain(made.key.slice(12));
  });

  test("keys and prefixes differ from one to the next", () => {
    const made = Array.from({ length: 200 }, () => newApiKey());
    expect(new Set(made.map((m) => m.key)).size).toBe(200);
    expect(new Set(made.map((m) => m.prefix)).size).toBe(200);
  });

  test("random base62 uses all 62 letters and digits, and nothing else", () => {
    const drawn = randomBase62(20_000);
    expect(drawn).toHaveLength(20_000);
    expect(drawn).toMatch(/^[0-9A-Za-z]+$/);
    expect(new Set(drawn).size).toBe(62);
  });
});

describe("reading a key", () => {
  test("the prefix of a well-formed key; nothing for anything else", () => {
    const { key, prefix } = newApiKey();
    expect(prefixOf(key)).toBe(prefix);
    expect(prefixOf(key.slice(0, -1))).toBeUndefined();
    expect(prefixOf(`${key}x`)).toBeUndefined();
    expect(prefixOf(key.replace("pw_", "px_"))).toBeUndefined();
    expect(prefixOf(`${key.slice(0, -1)}!`)).toBeUndefined();
    expect(prefixOf("")).toBeUndefined();
  });

  test("a key matches its own hash only", () => {
    const a = newApiKey();
    const b = newApiKey();
    expect(keyMatches(a.key, a.secretHash)).toBe(true);
    expect(keyMatches(b.key, a.secretHash)).toBe(false);
    // Same prefix, another secret: refused.
    const forged = `${a.prefix}_${b.key.slice(12)}`;
    expect(keyMatches(forged, a.secretHash)).toBe(false);
    expect(hashApiKey(a.key)).toBe(a.secretHash);
    // A stored value that is not a hash of the right length never matches.
    expect(keyMatches(a.key, "abc")).toBe(false);
  });

  test("Authorization: Bearer, in any case, with any key or none; other schemes are not keys", () => {
    const of = (authorization?: string) =>
      bearerKeyOf({ headers: authorization === undefined ? {} : { authorization } });
    expect(of("Bearer pw_abc")).toBe("pw_abc");
    expect(of("bearer   pw_abc  ")).toBe("pw_abc");
    expect(of("BEARER\tpw_abc")).toBe("pw_abc");
    expect(of("Bearer")).toBe("");
    expect(of("Bearer a b")).toBe("a b");
    expect(of("Basic dXNlcjpwYXNz")).toBeUndefined();
    expect(of("Bearerpw_abc")).toBeUndefined();
    expect(of(undefined)).toBeUndefined();
  });
});

describe("scopes", () => {
  test("a product change needs the scope of each kind of field it sends", () => {
    const needs = (body: object) => productChangeScopes.forBody(body).sort();
    expect(needs({ availableQuantity: 5, availableQuantityWas: 3 })).toEqual(["inventory:write"]);
    expect(needs({ price: 9.5 })).toEqual(["prices:write"]);
    expect(needs({ breaks: [] })).toEqual(["prices:write"]);
    expect(needs({ name: "Pads", shortDescription: "New" })).toEqual(["catalog:write"]);
    expect(needs({ price: 9.5, availableQuantity: 1, availableQuantityWas: 0, name: "X" })).toEqual(
      ["catalog:write", "inventory:write", "prices:write"],
    );
    expect(entryScopes(productChangeScopes)).toEqual([
      "catalog:write",
      "inventory:write",
      "prices:write",
    ]);
    expect(entryScopes("orders:read")).toEqual(["orders:read"]);
  });

  test("the refusals name the scopes in words", () => {
    expect(say.needsOneOf(["orders:read"])).toBe(
      "This API key does not have the orders:read scope",
    );
    expect(say.needsOneOf(["catalog:write", "inventory:write", "prices:write"])).toBe(
      "This API key needs one of the scopes catalog:write, inventory:write or prices:write",
    );
    expect(say.missingScopes(["prices:write"])).toBe(
      "This API key does not have the prices:write scope",
    );
    expect(say.missingScopes(["catalog:write", "prices:write"])).toBe(
      "This API key does not have the catalog:write and prices:write scopes",
    );
    expect(say.tooMany(600, 1)).toBe(
      "This API key may make 600 requests a minute: wait 1 second and try again",
    );
  });
});
