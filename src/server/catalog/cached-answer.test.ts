import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { spyOnCachedAnswers } from "../../../tests/support/read-cache";
import { products } from "./tables";
import { appForTests } from "../../../tests/support/store";

/**
 * A public read asked for again by the same URL is answered from the route's onRequest hook
 * (routes.ts, `answerFromCache`), before parsing and validation: the same answer as the handler's,
 * counted and logged by the same hooks.
 */
const TOKEN = "metrics-token-for-the-cached-answer-test-0123";
const { t } = appForTests({ env: { METRICS_TOKEN: TOKEN } });
let productId: string;
const answered = spyOnCachedAnswers();

beforeAll(async () => {
  for (let i = 0; i < 3; i++) await insertProduct(t.database.db, { name: `Cached part ${i}` });
  productId = (await t.database.db.select().from(products).limit(1))[0]!.id;
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });
/** Whether the last request was answered by the hook (the handler was not needed). */
const answeredEarly = () => answered.mock.results.at(-1)?.value !== undefined;
/** Everything of an answer but what differs per request (its id, the date). */
const whole = (res: Awaited<ReturnType<typeof get>>) => {
  const headers = { ...res.headers };
  expect(headers["x-request-id"]).toBeTruthy();
  delete headers["x-request-id"];
  delete headers.date;
  return { status: res.statusCode, headers, body: res.body };
};
const series = async (name: string) => {
  const text = (
    await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })
  ).body;
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
};
const HITS = 'store_catalog_cache_lookups_total{result="hit"}';
const count = (route: string, status: number) =>
  `http_request_duration_seconds_count{method="GET",route="${route}",status_code="${status}"}`;

test.each([
  ["a list page", "/api/products?limit=2&sort=name", "/api/products"],
  ["a search", "/api/products?q=cached&limit=2", "/api/products"],
  ["a product", () => `/api/products/${productId}`, "/api/products/:id"],
])(
  "%s: the second answer, from the hook, is the handler's (status, headers, body), counted alike",
  async (_name, u, route) => {
    const url = typeof u === "function" ? u() : u;
    // Until the catalog's NOTIFYs from the set-up have come and cleared the cache, a second
    // answer may still be the handler's: ask until one comes from the hook, and compare it with
    // the handler's answer just before it (the one that filled the cache it answers from).
    let first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(answeredEarly()).toBe(false);
    let second, hits, requests;
    for (;;) {
      [hits, requests] = [await series(HITS), await series(count(route, 200))];
      second = await get(url);
      if (answeredEarly()) break;
      first = second;
    }
    expect(whole(second)).toEqual(whole(first));
    expect(Object.keys(second.headers)).toEqual(Object.keys(first.headers)); // in the same order
    expect(await series(HITS)).toBe(hits + 1);
    expect(await series(count(route, 200))).toBe(requests + 1);
  },
);

test("a matching If-None-Match gets the handler's 304 from the hook", async () => {
  const etag = (await get("/api/products?limit=3")).headers.etag as string;
  // Another spelling of the same query: the same cached answer, but this URL is new.
  const url = "/api/products?limit=3&offset=0";
  const fromHandler = await get(url, { "if-none-match": etag });
  expect(answeredEarly()).toBe(false);
  const fromHook = await get(url, { "if-none-match": etag });
  expect(answeredEarly()).toBe(true);
  expect(fromHook.statusCode).toBe(304);
  expect(whole(fromHook)).toEqual(whole(fromHandler));
  expect(Object.keys(fromHook.headers)).toEqual(Object.keys(fromHandler.headers));
  const changed = await get(url, { "if-none-match": '"something-else"' });
  expect(changed.statusCode).toBe(200);
  expect(changed.headers.etag).toBe(etag);
});

test("what the hook cannot answer alike goes to the handler: HEAD, in-stock counts, bad queries, missing products", async () => {
  for (const [method, url] of [
    ["HEAD", "/api/products?limit=2"],
    ["GET", "/api/products?limit=2&inStock=true"],
    ["GET", "/api/products?limit=500"],
    ["GET", "/api/products/00000000-0000-4000-8000-000000000000"],
  ] as const) {
    const first = await t.app.inject({ method, url });
    const second = await t.app.inject({ method, url });
    expect(answeredEarly(), `${method} ${url}`).toBe(false);
    expect(whole(second)).toEqual(whole(first));
  }
});

test("a change clears what the hook answers: the next answer is the handler's, with the change", async () => {
  const url = `/api/products/${productId}`;
  const before = (await get(url)).json();
  await get(url);
  expect(answeredEarly()).toBe(true);
  await t.database.db
    .update(products)
    .set({ availableQuantity: before.availableQuantity + 3 })
    .where(eq(products.id, productId));
  // The trigger's NOTIFY clears the cache; wait for it rather than for time.
  await expect
    .poll(async () => (await get(url)).json().availableQuantity)
    .toBe(before.availableQuantity + 3);
});
