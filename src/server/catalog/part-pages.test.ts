import Fastify from "fastify";
import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { partSlug } from "../../contract/paths";
import type { PartPage } from "../../contract/parts";
import { signUpAdmin } from "../../../tests/support/accounts";
import { insertProduct, insertVehicle } from "../../../tests/support/factories";
import { registerSitemaps } from "../sitemap";
import { createPartPages } from "./part-pages";
import { productCrossReferences, productFitments, products } from "./tables";
import { STORE_BRAND } from "../../contract/parts";
import { replaceProductAssets } from "./writes";
import { insertDefinition, replaceProductAttributes } from "./attributes/writes";
import { appForTests } from "../../../tests/support/store";

const { t, call } = appForTests({ env: { ADMIN_EMAILS: "parts-admin@example.com" } });
let disc: typeof products.$inferSelect;

beforeAll(async () => {
  const db = t.database.db;
  disc = await insertProduct(db, {
    name: "Vented brake disc (front, 280 mm)",
    partNumber: "PW-BD/2801",
    category: "Brakes",
    availableQuantity: 37,
    priceCents: 4599,
  });
  await db.insert(productCrossReferences).values({
    productId: disc.id,
    kind: "OE",
    brand: "Volkswagen",
    number: "1K0 615 301 AA",
  });
  const roadster = await insertVehicle(db, "Partsville", "Roadster", [2015, 2016, 2017]);
  await db.insert(productFitments).values(
    roadster.baseVehicleIds.map((id) => ({
      productId: disc.id,
      baseVehicleId: id,
      position: "Front",
    })),
  );
});

const api = (slug: string) => t.app.inject({ method: "GET", url: `/api/parts/${slug}` });

test("the database's slug is the contract's, for any part number and name", async () => {
  const [row] = await t.database.db
    .select({ slug: products.slug })
    .from(products)
    .where(eq(products.id, disc.id));
  expect(row?.slug).toBe("pw-bd-2801-vented-brake-disc-front-280-mm");
  expect(partSlug(disc.partNumber, disc.name)).toBe(row?.slug);
  await fc.assert(
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 12 }).filter((s) => /[A-Za-z0-9]/.test(s)),
      fc.string({ maxLength: 30, unit: "binary" }).map((s) => s.replace(/\0/g, "")),
      async (number, name) => {
        const { rows } = await t.database.pool.query<{ slug: string }>(
          `select lower(btrim(regexp_replace($1 || '-' || $2, '[^A-Za-z0-9]+', '-', 'g'), '-')) as slug`,
          [number, name],
        );
        expect(rows[0]?.slug).toBe(partSlug(number, name));
      },
    ),
    { numRuns: 300 },
  );
  // The column's expression is the one above (the property is checked against the real column).
  const { rows } = await t.database.pool.query<{ expr: string }>(
    `select pg_get_expr(adbin, adrelid) as expr from pg_attrdef
     where adrelid = 'products'::regclass and adnum = (
       select attnum from pg_attribute where attrelid = 'products'::regclass and attname = 'slug')`,
  );
  expect(rows[0]?.expr).toContain("regexp_replace(((part_number || '-'::text) || name)");
});

test("GET /api/parts/:slug: the public facts, in stock or not but never how many", async () => {
  const res = await api("pw-bd-2801-vented-brake-disc-front-280-mm");
  expect(res.statusCode).toBe(200);
  const part = res.json<PartPage>();
  expect(part).toMatchObject({
    _id: disc.id,
    slug: "pw-bd-2801-vented-brake-disc-front-280-mm",
    partNumber: "PW-BD/2801",
    price: 45.99,
    currency: "USD",
    inStock: true,
    crossReferences: [{ kind: "OE", brand: "Volkswagen", number: "1K0 615 301 AA" }],
    applications: [
      {
        make: "Partsville",
        model: "Roadster",
        rows: [expect.objectContaining({ years: "2015–2017", position: "Front" })],
      },
    ],
  });
  expect(part).not.toHaveProperty("availableQuantity");
  // The stock figure (37) is nowhere, as a number or a text (an id may hold the digits 37).
  expect(res.body).not.toMatch(/[:[,]"?37"?[,\]}]/);
  // Letter case does not matter to the API; a part nobody sells, or a hostile address, does.
  expect((await api("PW-BD-2801-Vented-Brake-Disc-Front-280-mm")).json()).toEqual(part);
  expect((await api("pw-bd-9999-nothing")).statusCode).toBe(404);
  expect((await api("pw-bd%3Cscript%3E")).statusCode).toBe(400);
});

test("GET /api/parts/:slug: the brand (the store's when none), the attributes in order, pictures and documents", async () => {
  const db = t.database.db;
  const plain = await insertProduct(db, { category: "Brakes", name: "Plain disc" });
  expect((await api(partSlug(plain.partNumber, plain.name))).json<PartPage>()).toMatchObject({
    brand: STORE_BRAND,
    attributes: [],
    images: [],
    documents: [],
  });
  // Written before its page is first read (the read cache is cleared by a notification, later).
  const part = await insertProduct(db, { category: "Brakes", name: "Spec disc" });
  const slug = partSlug(part.partNumber, part.name);
  await db.transaction(async (tx) => {
    const diameter = await insertDefinition(tx, {
      category: "Brakes",
      name: "Disc diameter",
      kind: "number",
      unit: "mm",
      choices: [],
      position: 0,
      filterable: true,
    });
    const vent = await insertDefinition(tx, {
      category: "Brakes",
      name: "Disc vent",
      kind: "choice",
      unit: null,
      choices: ["Solid", "Vented"],
      position: 1,
      filterable: true,
    });
    await replaceProductAttributes(tx, part.id, [
      { attributeId: vent.id, numberValue: null, textValue: "Vented" },
      { attributeId: diameter.id, numberValue: "280.50", textValue: null },
    ]);
    await replaceProductAssets(tx, part.id, [
      { kind: "document", title: "Fitting guide", url: "https://cdn.example/guide.pdf" },
      { kind: "image", title: "Disc, side view", url: "https://cdn.example/side.jpg" },
      { kind: "image", title: "Disc, top view", url: "https://cdn.example/top.jpg" },
    ]);
    await tx.update(products).set({ brand: "Brakeworks" }).where(eq(products.id, part.id));
  });
  expect((await api(slug)).json<PartPage>()).toMatchObject({
    brand: "Brakeworks",
    attributes: [
      { name: "Disc diameter", value: "280.5", unit: "mm" },
      { name: "Disc vent", value: "Vented", unit: null },
    ],
    images: [
      { title: "Disc, side view", url: "https://cdn.example/side.jpg" },
      { title: "Disc, top view", url: "https://cdn.example/top.jpg" },
    ],
    documents: [{ title: "Fitting guide", url: "https://cdn.example/guide.pdf" }],
  });
});

test("an out-of-stock part says so, and a change shows at once (the cache is cleared)", async () => {
  const soldOut = await insertProduct(t.database.db, { partNumber: "SO-1", availableQuantity: 0 });
  expect((await api(partSlug("SO-1", soldOut.name))).json<PartPage>().inStock).toBe(false);
  const slug = "pw-bd-2801-vented-brake-disc-front-280-mm";
  expect((await api(slug)).json<PartPage>().price).toBe(45.99);
  const admin = await signUpAdmin(t, { email: "parts-admin@example.com", name: "Avery" });
  const edit = (price: number) => call(admin, "PATCH", `/api/products/${disc.id}`, { price });
  expect((await edit(39.99)).statusCode).toBe(200);
  expect((await api(slug)).json<PartPage>().price).toBe(39.99);
  expect((await edit(45.99)).statusCode).toBe(200);
});

test("/parts/:slug: another letter case or a renamed part's old address leads to its address (301); none is 404", async () => {
  const page = (url: string) => t.app.inject({ method: "GET", url });
  const upper = await page("/parts/PW-BD-2801-Vented-Brake-Disc-Front-280-mm?year=2016");
  expect(upper.statusCode).toBe(301);
  expect(upper.headers.location).toBe("/parts/pw-bd-2801-vented-brake-disc-front-280-mm?year=2016");
  const renamed = await page("/parts/pw-bd-2801-brake-disc");
  expect(renamed.statusCode).toBe(301);
  expect(renamed.headers.location).toBe("/parts/pw-bd-2801-vented-brake-disc-front-280-mm");
  expect((await page("/parts/zz-0000-unknown")).statusCode).toBe(404);
  expect((await page("/parts/%3Cb%3E")).statusCode).toBe(404);
});

test("the sitemap index names the pages' file and one file per 3 parts here; each lists part pages once", async () => {
  const db = t.database.db;
  // Two products whose slugs meet: the address is listed once.
  await insertProduct(db, { partNumber: "SM-1", name: "A b" });
  await insertProduct(db, { partNumber: "SM-1-A", name: "b", createdAt: new Date(Date.now() + 1) });
  for (const n of [2, 3, 4]) await insertProduct(db, { partNumber: `SM-${n}`, name: "Part" });
  const [{ n: total } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(products);
  const partPages = createPartPages(db, "USD");
  const app = Fastify();
  registerSitemaps(app, { publicUrl: "https://parts.example", parts: partPages, perFile: 3 });
  try {
    const index = await app.inject({ url: "/sitemap.xml" });
    expect(index.headers["content-type"]).toMatch(/application\/xml/);
    const files = [...index.body.matchAll(/<loc>https:\/\/parts\.example([^<]+)<\/loc>/g)].map(
      (m) => m[1]!,
    );
    const partFiles = Math.ceil(total / 3);
    expect(files).toEqual([
      "/sitemaps/pages.xml",
      ...Array.from({ length: partFiles }, (_, i) => `/sitemaps/parts-${i + 1}.xml`),
    ]);
    const listed: string[] = [];
    for (const file of files.slice(1)) {
      const res = await app.inject({ url: file });
      expect(res.statusCode).toBe(200);
      listed.push(...[...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
    }
    const slugs = (await db.select({ slug: products.slug }).from(products)).map(
      (r) => `https://parts.example/parts/${r.slug}`,
    );
    expect(new Set(listed)).toEqual(new Set(slugs));
    expect(listed.filter((l) => l.endsWith("/parts/sm-1-a-b"))).toHaveLength(1);
    const pages = await app.inject({ url: "/sitemaps/pages.xml" });
    expect(pages.body).toContain("<loc>https://parts.example/allproducts</loc>");
    for (const missing of [`/sitemaps/parts-${partFiles + 1}.xml`, "/sitemaps/parts-0.xml"]) {
      expect((await app.inject({ url: missing })).statusCode).toBe(404);
    }
  } finally {
    await app.close();
  }
});
