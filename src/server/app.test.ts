import fs from "node:fs/promises";
import { partSlug } from "../contract/paths";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { insertProduct } from "../../tests/support/factories";
import { createTestApp, type TestApp } from "../../tests/support/test-app";

let t: TestApp;
let webDir: string;

beforeAll(async () => {
  // A stand-in for the built web app, so the static serving can be checked without a build.
  webDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-web-"));
  await fs.mkdir(path.join(webDir, "assets"));
  await fs.writeFile(path.join(webDir, "index.html"), "<!doctype html><title>store</title>");
  await fs.writeFile(path.join(webDir, "assets", "app-abc123.js"), "console.log(1)");
  await fs.writeFile(
    path.join(webDir, "assets", "app-abc123.js.br"),
    zlib.brotliCompressSync("console.log(1)"),
  );
  await fs.mkdir(path.join(webDir, "pages"));
  const page = (title: string, path: string) =>
    `<head><title>${title}</title><link rel="canonical" href="__PUBLIC_URL__${path}" /></head>`;
  await fs.writeFile(path.join(webDir, "pages", "index.html"), page("landing", "/"));
  await fs.writeFile(path.join(webDir, "pages", "blogs.html"), page("blogs", "/blogs"));
  await fs.mkdir(path.join(webDir, "shells"));
  await fs.writeFile(path.join(webDir, "shells", "product.html"), "<title>product shell</title>");
  // Pages wait for their structured data here, so each test sees the products it made.
  t = await createTestApp({
    WEB_DIST_DIR: webDir,
    PUBLIC_URL: "https://parts.example",
    PAGE_DATA_WAIT_MS: "60000",
  });
});
afterAll(async () => {
  await t.close();
  await fs.rm(webDir, { recursive: true, force: true });
});

test("GET /api/health checks the database", async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/health" });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: "ok" });
});

test("an unknown /api path answers a JSON 404", async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
  expect(res.statusCode).toBe(404);
  expect(res.headers["content-type"]).toMatch(/application\/json/);
  expect(res.json()).toEqual({ error: "not_found", message: "No such API route" });
});

test("a product page is answered with the product page's shell (its layout, placeholders)", async () => {
  for (const url of ["/products/123", "/products/123?x=1", "/Products/123/"]) {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("<title>product shell</title>");
    expect(res.headers["cache-control"]).toBe("no-cache");
  }
});

test.each(["/allproducts", "/dashboard/myitems", "/dashboard/addproduct", "/blogs?page=2"])(
  "the page path %s answers the single-page app",
  async (url) => {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain("<title>store</title>");
    expect(res.headers["cache-control"]).toBe("no-cache");
  },
);

test.each(["/no/such/page", "/blogs/x", "/products", "/dashboard/payment"])(
  "%s is no page: 404, with the app (which shows the not-found page)",
  async (url) => {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain("<title>store</title>");
  },
);

test.each([
  ["/", "landing", "/"],
  ["/blogs", "blogs", "/blogs"],
  ["/blogs/", "blogs", "/blogs"],
])(
  "the pre-rendered page %s answers its own HTML with the store's address",
  async (url, title, canonical) => {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain(`<title>${title}</title>`);
    expect(res.body).toContain(`<link rel="canonical" href="https://parts.example${canonical}" />`);
    expect(res.headers["cache-control"]).toBe("no-cache");
  },
);

test("a built file is sent in its pre-compressed form; the compressed files and page templates are no paths of their own", async () => {
  const res = await t.app.inject({
    method: "GET",
    url: "/assets/app-abc123.js",
    headers: { "accept-encoding": "gzip, br" },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-encoding"]).toBe("br");
  expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe("console.log(1)");
  for (const url of ["/assets/app-abc123.js.br", "/pages/blogs.html", "/shells/product.html"]) {
    const other = await t.app.inject({ method: "GET", url });
    expect(other.body, url).not.toContain("__PUBLIC_URL__");
    expect(other.headers["content-type"], url).toMatch(/text\/html/);
  }
});

test("a pre-rendered page is sent compressed to a browser that accepts it", async () => {
  const plain = await t.app.inject({ method: "GET", url: "/blogs" });
  const res = await t.app.inject({
    method: "GET",
    url: "/blogs",
    headers: { "accept-encoding": "gzip, deflate, br" },
  });
  expect(res.headers["content-encoding"]).toBe("br");
  expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(plain.body);
});

test("the landing page carries the newest products as JSON-LD structured data", async () => {
  for (let i = 0; i < 4; i += 1) {
    await insertProduct(t.database.db, {
      name: `Part ${i} </script><b>`,
      createdAt: new Date(Date.now() + i),
    });
  }
  const res = await t.app.inject({ method: "GET", url: "/" });
  const json = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(res.body)?.[1];
  const data = JSON.parse(json ?? "null");
  expect(data).toMatchObject({ "@context": "https://schema.org", "@type": "ItemList" });
  const newest = (await t.app.inject({ method: "GET", url: "/api/products?limit=3" })).json();
  expect(data.itemListElement).toHaveLength(3);
  expect(data.itemListElement.map((e: { item: { name: string } }) => e.item.name)).toEqual(
    newest.map((p: { name: string }) => p.name),
  );
  expect(data.itemListElement[0].item).toMatchObject({
    "@type": "Product",
    url: `https://parts.example/parts/${partSlug(newest[0].partNumber, newest[0].name)}`,
    offers: { "@type": "Offer", priceCurrency: "USD", price: newest[0].price.toFixed(2) },
  });
  // Pages that list no products have none.
  expect((await t.app.inject({ method: "GET", url: "/blogs" })).body).not.toContain("ld+json");
});

test("product text with replacement patterns ($`, $', $&) goes into the JSON-LD as it is", async () => {
  const hostile = "Pad $` before $' after $& match $1 $$ $<n> </head>";
  const product = await insertProduct(t.database.db, {
    name: `Caliper ${hostile}`,
    shortDescription: `Fits all ${hostile} models`,
    createdAt: new Date(Date.now() + 3_600_000),
  });
  const res = await t.app.inject({ method: "GET", url: "/" });
  expect(res.statusCode).toBe(200);
  const scripts = [...res.body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  const item = JSON.parse(scripts[0]![1]!).itemListElement[0].item;
  const api = (await t.app.inject({ method: "GET", url: `/api/products/${product.id}` })).json();
  expect(item).toEqual({
    "@type": "Product",
    name: product.name,
    description: product.shortDescription,
    image: `https://parts.example${product.img}`,
    url: `https://parts.example/parts/${partSlug(product.partNumber, product.name)}`,
    offers: {
      "@type": "Offer",
      price: api.price.toFixed(2),
      priceCurrency: "USD",
      availability: "https://schema.org/InStock",
    },
  });
  // Nothing of the page is copied: without its JSON-LD it is the template, byte for byte.
  const template = `<head><title>landing</title><link rel="canonical" href="https://parts.example/" /></head>`;
  expect(res.body.replace(scripts[0]![0], () => "")).toBe(template);
  expect(res.body.length).toBe(template.length + scripts[0]![0].length);
});

test("/sitemap.xml names the public pages' sitemap at the store's address, robots.txt points to it", async () => {
  const index = await t.app.inject({ method: "GET", url: "/sitemap.xml" });
  expect(index.statusCode).toBe(200);
  expect(index.body).toContain("<sitemap><loc>https://parts.example/sitemaps/pages.xml</loc>");
  const res = await t.app.inject({ method: "GET", url: "/sitemaps/pages.xml" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/application\/xml/);
  const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(locs).toEqual(
    ["/", "/allproducts", "/blogs", "/review", "/myprotfolio"].map(
      (p) => `https://parts.example${p}`,
    ),
  );
  const robots = await t.app.inject({ method: "GET", url: "/robots.txt" });
  expect(robots.body).toContain("Sitemap: https://parts.example/sitemap.xml");
});

test("hashed assets are served with a long cache lifetime", async () => {
  const res = await t.app.inject({ method: "GET", url: "/assets/app-abc123.js" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("pages carry the security headers", async () => {
  const res = await t.app.inject({ method: "GET", url: "/" });
  const csp = String(res.headers["content-security-policy"]);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
});

test("API answers carry an API's security headers, Swagger UI a page's", async () => {
  const api = await t.app.inject({ method: "GET", url: "/api/products?limit=1" });
  expect(api.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(api.headers["x-content-type-options"]).toBe("nosniff");
  expect(api.headers["x-frame-options"]).toBe("DENY");
  expect(api.headers["cross-origin-resource-policy"]).toBe("same-origin");
  expect(api.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(api.headers).not.toHaveProperty("cross-origin-opener-policy");
  const docs = await t.app.inject({ method: "GET", url: "/api/docs/" });
  expect(String(docs.headers["content-security-policy"])).toMatch(/script-src 'self'(;|$)/);
});

test("X-Frame-Options says what the CSP's frame-ancestors says: on a page, an API answer and the API docs", async () => {
  const xfoFor: Record<string, string> = { "'none'": "DENY", "'self'": "SAMEORIGIN" };
  for (const url of ["/", "/api/products?limit=1", "/api/docs/"]) {
    const res = await t.app.inject({ method: "GET", url });
    const csp = String(res.headers["content-security-policy"]);
    const frameAncestors = /(?:^|;)\s*frame-ancestors ([^;]*)/.exec(csp)?.[1]?.trim();
    expect(frameAncestors, url).toBe("'none'");
    expect(res.headers["x-frame-options"], url).toBe(xfoFor[frameAncestors!]);
  }
});

test("the OpenAPI document lists the catalog routes", async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
  expect(res.statusCode).toBe(200);
  const doc = res.json();
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(["/api/products", "/api/products/{id}", "/api/reviews"]),
  );
});

test("a body over the size limit is a 413 with the error shape, not a 500", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({ email: "a@example.com", password: "x".repeat(300 * 1024) }),
  });
  expect(res.statusCode).toBe(413);
  expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
});

test("HSTS is sent in production only", async () => {
  expect((await t.app.inject({ method: "GET", url: "/" })).headers).not.toHaveProperty(
    "strict-transport-security",
  );
  const prod = await createTestApp({
    NODE_ENV: "production",
    PAYMENTS_GATEWAY: "test-card",
    WEB_DIST_DIR: webDir,
  });
  try {
    const res = await prod.app.inject({ method: "GET", url: "/" });
    expect(res.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    expect(String(res.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
    const api = await prod.app.inject({ method: "GET", url: "/api/products?limit=1" });
    expect(api.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
  } finally {
    await prod.close();
  }
});
