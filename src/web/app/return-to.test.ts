import type { Location } from "react-router";
import { expect, test } from "vitest";
import { localPath, returnToFrom } from "./return-to";

const at = (search: string, state: unknown = null): Location => ({
  pathname: "/login",
  search,
  hash: "",
  state,
  key: "default",
});

test.each([
  "/\\evil.test",
  "/\\\\evil.test",
  "//evil.test",
  "/\t/evil.test",
  "https://evil.test",
  "https://evil.test/allproducts",
  "/%5Cevil.test",
  "/%5C%5Cevil.test",
  "/%2F%2Fevil.test",
  "javascript:alert(1)",
  "evil.test",
  "",
  // Our own origin, but no path: the rule is a path.
  `${window.location.origin}/allproducts`,
  "/%E0%A4%A",
])("%j could lead elsewhere: home instead", (to) => {
  expect(localPath(to)).toBe("/");
  expect(returnToFrom(at(`?from=${encodeURIComponent(to)}`))).toBe("/");
  expect(returnToFrom(at("", { from: to }))).toBe("/");
});

test.each([
  "/",
  "/allproducts?q=brake+pad&sort=price",
  "/allproducts?q=100%25%20off",
  "/dashboard/myitems?page=2#top",
  "/products/0b6e2c1e-3f4a-4d2b-9c1e-5a6b7c8d9e0f",
  "/checkout?from=%2F%2Fevil.test",
])("%j is a path of this site: kept", (to) => {
  expect(localPath(to)).toBe(to);
  expect(returnToFrom(at(`?from=${encodeURIComponent(to)}`))).toBe(to);
  expect(returnToFrom(at("", { from: to }))).toBe(to);
});

test.each([
  "/..//evil.test",
  "/./..//evil.test",
  "/a/../..//evil.test",
  "/.%2e//evil.test",
  "/%2e%2e//evil.test",
  "/..///evil.test/path?x=1",
  "/..%2F%2Fevil.test",
])("%j leaves dot segments that make it //evil.test: home instead (issue 49)", (to) => {
  expect(localPath(to)).toBe("/");
  expect(returnToFrom(at(`?from=${encodeURIComponent(to)}`))).toBe("/");
  expect(returnToFrom(at("", { from: to }))).toBe("/");
});

test("a path with dot segments that stays here is kept, without them", () => {
  expect(localPath("/blogs/../allproducts?q=pad")).toBe("/allproducts?q=pad");
});

test("the page the guard stopped wins over ?from=; neither: home", () => {
  expect(returnToFrom(at("?from=%2Fblogs", { from: "/dashboard/myitems" }))).toBe(
    "/dashboard/myitems",
  );
  expect(returnToFrom(at("?from=%2Fblogs", { signedOut: "admin-only" }))).toBe("/blogs");
  expect(returnToFrom(at(""))).toBe("/");
});
