import fs from "node:fs/promises";
import zlib from "node:zlib";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { expect, test } from "vitest";
import { PAGE_END, PAGE_START } from "../contract/paths";
import { latestWithin, registerWebApp } from "./web-app";

/** A read the test finishes when it likes: a database that answers late or not at all. */
function pendingRead() {
  let finish!: (value: string) => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

test("a page's structured data: fresh when the read answers in time, else the last one read", async () => {
  const reads: ReturnType<typeof pendingRead>[] = [];
  const structuredData = latestWithin(20, () => {
    const read = pendingRead();
    reads.push(read);
    return read.promise;
  });

  // In time: the fresh answer.
  const first = structuredData();
  reads[0]!.finish("v1");
  expect(await first).toBe("v1");

  // The database stops answering: the page goes out with v1, and later views share the one read.
  expect(await structuredData()).toBe("v1");
  expect(await structuredData()).toBe("v1");
  expect(reads).toHaveLength(2);

  // When that read finally answers, the next view gets it (and starts a new read).
  reads[1]!.finish("v2");
  await new Promise((resolve) => setImmediate(resolve)); // its callbacks have run
  const third = structuredData();
  expect(reads).toHaveLength(3);
  reads[2]!.finish("v3");
  expect(await third).toBe("v3");

  // A failed read keeps what was there.
  const fourth = structuredData();
  reads[3]!.fail(new Error("53100 could not extend file"));
  expect(await fourth).toBe("v3");
});

test("before any read has answered, a page that cannot wait goes out without structured data", async () => {
  const never = pendingRead();
  expect(await latestWithin(10, () => never.promise)()).toBe("");
});

/**
 * A build folder with All products' pre-rendered page and, when given, a server-side bundle
 * (`web-ssr/prerender.js`) with this source.
 */
async function builtWith(
  bundle?: string,
  extra: Pick<Parameters<typeof registerWebApp>[1], "inDefaultMarket"> = {},
) {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "web-app-test-"));
  const web = path.join(root, "web");
  await fs.mkdir(path.join(web, "pages"), { recursive: true });
  await fs.writeFile(
    path.join(web, "index.html"),
    '<html><head></head><div id="root"></div></html>',
  );
  await fs.writeFile(
    path.join(web, "pages", "allproducts.html"),
    `<html><head><link rel="preload" as="fetch" crossorigin href="/api/products?limit=12&amp;sort=newest">` +
      `<style>.card{}</style></head><div id="root">${PAGE_START}<p>skeletons</p>${PAGE_END}</div></html>`,
  );
  if (bundle !== undefined) {
    await fs.mkdir(path.join(root, "web-ssr"));
    await fs.writeFile(path.join(root, "web-ssr", "prerender.js"), bundle);
  }
  const errors: unknown[] = [];
  const app = Fastify({ logger: false });
  app.log.error = ((obj: unknown) => errors.push(obj)) as never;
  const cached = new Map([
    ["/api/products?first", { body: Buffer.from('[{"name":"Disc"}]'), total: 1 }],
  ]);
  await registerWebApp(app, {
    webDistDir: web,
    publicUrl: "http://store.test",
    currency: "USD",
    structuredDataWaitMs: 0,
    newestProducts: async () => [],
    cachedList: (url) => cached.get(url),
    ...extra,
    parts: {
      answer: async () => undefined,
      currentAddress: async () => undefined,
      sitemap: { count: async () => 0, addresses: async function* () {} },
    },
  });
  await app.ready();
  const page = async (cookie?: string) =>
    (await app.inject({ url: "/allproducts", headers: cookie ? { cookie } : {} })).body;
  return { app, page, errors, cached, close: () => fs.rm(root, { recursive: true, force: true }) };
}

const RENDERING_BUNDLE = `
export const firstProductsRequest = () => "/api/products?first";
export const renderWithProducts = async (url, { items, total }) =>
  "<p>" + items.map((i) => i.name).join(",") + " of " + total + "</p>";
`;

test("All products: a visitor gets it with the cached first page; a session cookie, an empty cache or no bundle keep the skeletons", async () => {
  const built = await builtWith(RENDERING_BUNDLE);
  try {
    expect(await built.page()).toContain(`${PAGE_START}<p>Disc of 1</p>${PAGE_END}`);
    expect(await built.page("better-auth.session_token=abc")).toContain("<p>skeletons</p>");
    built.cached.clear();
    expect(await built.page()).toContain("<p>skeletons</p>");
  } finally {
    await built.app.close();
    await built.close();
  }
  const unbuilt = await builtWith();
  try {
    expect(await unbuilt.page()).toContain("<p>skeletons</p>");
  } finally {
    await unbuilt.app.close();
    await unbuilt.close();
  }
});

test("All products: a visitor in another market than the default keeps the skeletons (the cached page is the default market's)", async () => {
  const built = await builtWith(RENDERING_BUNDLE, {
    inDefaultMarket: async (req) => !req.headers.cookie?.includes("market=EU"),
  });
  try {
    expect(await built.page("market=EU")).toContain("<p>skeletons</p>");
    expect(await built.page("market=US")).toContain(`${PAGE_START}<p>Disc of 1</p>${PAGE_END}`);
  } finally {
    await built.app.close();
    await built.close();
  }
});

const FILTERING_BUNDLE = `
export const firstProductsRequest = (url) =>
  "/api/products?" + (url.includes("?") ? url.split("?")[1] + "&" : "") + "first";
export const renderWithProducts = async (url, { items, total }) =>
  "<p>" + url + ": " + items.map((i) => i.name).join(",") + " of " + total + "</p>";
`;

test("All products filtered: a visitor gets that list's cards once the catalog holds it, preloading that list, with no structured data", async () => {
  const built = await builtWith(FILTERING_BUNDLE);
  try {
    built.cached.set("/api/products?category=Brakes&first", {
      body: Buffer.from('[{"name":"Pad"}]'),
      total: 7,
    });
    const ask = (url: string, cookie?: string) =>
      built.app.inject({
        url,
        headers: { "accept-encoding": "gzip, deflate, br", ...(cookie && { cookie }) },
      });
    const res = await ask("/allproducts?category=Brakes");
    expect(res.headers["content-encoding"]).toBe("gzip");
    const html = zlib.gunzipSync(res.rawPayload).toString();
    expect(html).toContain(`${PAGE_START}<p>/allproducts?category=Brakes: Pad of 7</p>${PAGE_END}`);
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/products?category=Brakes&amp;first">',
    );
    expect(html).toContain("<style>.card{}</style>");
    expect(html).not.toContain("sort=newest");
    expect(html).not.toContain("application/ld+json");
    // A list the catalog does not hold yet, or a session: the app renders the page.
    for (const [url, cookie] of [
      ["/allproducts?category=Filters", undefined],
      ["/allproducts?category=Brakes", "better-auth.session_token=abc"],
    ] as const) {
      const other = await ask(url, cookie);
      expect(other.statusCode).toBe(200);
      const body =
        other.headers["content-encoding"] === "gzip"
          ? zlib.gunzipSync(other.rawPayload).toString()
          : other.body;
      expect(body).toContain('<div id="root">');
      expect(body).not.toContain("Pad of 7");
    }
  } finally {
    await built.app.close();
    await built.close();
  }
});

test("All products: a bundle that cannot be loaded, or a render that fails, is logged and the page keeps its skeletons", async () => {
  for (const bundle of [
    'throw new Error("cannot load");',
    `export const firstProductsRequest = () => "/api/products?first";
     export const renderWithProducts = async () => { throw new Error("cannot render"); };`,
  ]) {
    const built = await builtWith(bundle);
    try {
      const res = await built.app.inject({ url: "/allproducts" });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain("<p>skeletons</p>");
      expect(built.errors).toHaveLength(1);
    } finally {
      await built.app.close();
      await built.close();
    }
  }
});
