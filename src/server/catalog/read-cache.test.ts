import { expect, test } from "vitest";
import { CatalogReadCache, queryKey } from "./read-cache";

const listeningCache = (max: number) => {
  const cache = new CatalogReadCache(max);
  cache.setListening(true);
  return cache;
};

test("answers from memory after the first read, with an ETag of the body", async () => {
  const cache = listeningCache(10);
  let reads = 0;
  const compute = async () => [{ n: ++reads }];
  const first = await cache.get("k", compute);
  const second = await cache.get("k", compute);
  expect(reads).toBe(1);
  expect(second).toBe(first);
  expect(first?.body.toString()).toBe('[{"n":1}]');
  expect(first?.etag).toMatch(/^"[\w-]+"$/);
});

test("a fill that started before an invalidation is not kept", async () => {
  const cache = listeningCache(10);
  let release!: () => void;
  const slow = cache.get("k", async () => {
    await new Promise<void>((r) => (release = r));
    return "stale";
  });
  await Promise.resolve();
  cache.invalidate("stock"); // the data changed while the slow read was running
  release();
  expect((await slow)?.body.toString()).toBe('"stale"'); // the caller still gets its answer…
  expect(cache.size).toBe(0); // …but the cache does not keep it
  expect((await cache.get("k", async () => "fresh"))?.body.toString()).toBe('"fresh"');
});

test("keeps at most maxEntries, dropping the oldest; not listening for changes, it keeps nothing", async () => {
  const cache = listeningCache(2);
  for (const k of ["a", "b", "c"]) await cache.get(k, async () => k);
  expect(cache.size).toBe(2);
  cache.setListening(false);
  await cache.get("d", async () => "d");
  expect(cache.size).toBe(0);
});

test("a stock change keeps the list totals; a catalog change recounts them", async () => {
  const cache = listeningCache(10);
  let counts = 0;
  const count = async () => ++counts;
  expect(await cache.total("", count)).toBe(1);
  cache.invalidate("stock");
  expect(await cache.total("", count)).toBe(1);
  cache.invalidate("catalog");
  expect(await cache.total("", count)).toBe(2);
});

test("with the answers off (CATALOG_CACHE=false) the totals are still kept", async () => {
  const cache = new CatalogReadCache(10, false);
  cache.setListening(true);
  let counts = 0;
  let reads = 0;
  const count = async () => ++counts;
  expect(await cache.total("", count)).toBe(1);
  expect(await cache.total("", count)).toBe(1);
  await cache.get("k", async () => ++reads);
  await cache.get("k", async () => ++reads);
  expect(reads).toBe(2);
});

test("a query's key holds every field in a fixed order, empty ones left out", () => {
  expect(queryKey("list", { q: "brake", category: "Brakes", vehicle: undefined })).toBe(
    queryKey("list", { category: "Brakes", q: "brake", minPrice: undefined }),
  );
  expect(queryKey("list", { q: "", category: "Brakes" })).toBe(
    queryKey("list", { category: "Brakes" }),
  );
  expect(queryKey("list", { q: "brake", vehicle: "a" })).not.toBe(
    queryKey("list", { q: "brake", vehicle: "b" }),
  );
});
