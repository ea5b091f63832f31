import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { eq } from "drizzle-orm";
import { products } from "./tables";
import { seedDemoData } from "../demo/seed";
import { demoProducts } from "./demo-products";

// The demo catalog is what a shopper searches on first start: the queries run on it.
const { t, call, admin } = storeForTests({
  admin: { email: "search-admin@example.com", name: "Avery" },
});

beforeAll(async () => {
  expect(await seedDemoData(t.database.db)).toBe(true);
});

interface Item {
  _id: string;
  name: string;
  partNumber: string;
  category: string;
  price: number;
  availableQuantity: number;
  minimumOrder: number;
  matched?: string;
}

const list = async (query: Record<string, string>) => {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/products?${new URLSearchParams({ limit: "100", ...query })}`,
  });
  expect(res.statusCode).toBe(200);
  return { items: res.json() as Item[], total: Number(res.headers["x-total-count"]) };
};
const search = async (q: string) => (await list({ q })).items;
const names = (items: Item[]) => items.map((p) => p.name);
const nameOf = (slug: string) => demoProducts.find((p) => p.slug === slug)!.name;

describe("words as people type them", () => {
  // The table: what a shopper types, and the product it must find first.
  test.each([
    ["brake pads", "brake-disc-kit"],
    ["brake discs", "brake-disc-kit"],
    ["spark plugs", "iridium-spark-plugs"],
    ["wiper blades", "wiper-blade-set"],
    ["shock absorbers", "gas-shock-absorber"],
    ["filter oil", "oil-filter"],
    ["Oil Filters", "oil-filter"],
    ["fuel pumps", "electric-fuel-pump"],
    ["radiators", "aluminium-radiator"],
    ["headlights led", "led-headlight"],
  ])("%s finds %s first", async (q, slug) => {
    const found = await search(q);
    expect(names(found)[0]).toBe(nameOf(slug));
  });

  test("every word must match: a word nothing contains finds nothing", async () => {
    expect(await search("brake pads zebra")).toEqual([]);
    // "filter oil" finds the oil filter, not the air filter (which has no "oil").
    expect(names(await search("filter oil"))).toEqual([nameOf("oil-filter")]);
  });

  test("a typo in a longer word is forgiven (trigram similarity)", async () => {
    expect(names(await search("altenator"))[0]).toBe(nameOf("alternator-120a"));
    expect(names(await search("wipper blades"))[0]).toBe(nameOf("wiper-blade-set"));
  });

  test("a name with dashed numbers is found by the whole name and by a number in it", async () => {
    // PostgreSQL's parser reads "1795-9081-1" as 1795, -9081 and -1: the words alone miss it.
    const name = `Ceramic brake pads ${Date.now()}-9081-1`;
    const made = await insertProduct(t.database.db, { name });
    expect((await search(name)).map((p) => p._id)).toEqual([made.id]);
    expect((await search(`ceramic pads 9081`)).map((p) => p._id)).toContain(made.id);
    await t.database.db.delete(products).where(eq(products.id, made.id));
  });

  test("the exact phrase still matches literally, % and _ included", async () => {
    expect(names(await search("spark plug"))[0]).toBe(nameOf("iridium-spark-plugs"));
    expect(await search("100%")).toEqual([]);
    expect(await search("_")).toEqual([]);
  });

  test("a name match ranks above a description match", async () => {
    // "timing belt" is the timing belt kit's name, and the water pump's description.
    expect(names(await search("timing belt"))).toEqual([
      nameOf("timing-belt-kit"),
      nameOf("water-pump"),
    ]);
  });
});

describe("part numbers", () => {
  test.each(["0446502220", "04465 02220", "04465-02220", "04465.02220", "  04465-02220 "])(
    "the OE number typed as %j finds the brake kit first, and says why",
    async (q) => {
      const [first] = await search(q);
      expect(first?.name).toBe(nameOf("brake-disc-kit"));
      expect(first?.matched).toBe("matches OE 04465-02220 (Toyota)");
    },
  );

  test("our own number in any case and spacing, and a competitor's and a superseded one", async () => {
    const [ours] = await search("pw fl 1104");
    expect(ours).toMatchObject({
      name: nameOf("oil-filter"),
      matched: "matches part number PW-FL-1104",
    });
    const [mann] = await search("w712/95");
    expect(mann).toMatchObject({
      name: nameOf("oil-filter"),
      matched: "matches Mann-Filter W 712/95",
    });
    const [old] = await search("PW-WP-1050");
    expect(old).toMatchObject({
      name: nameOf("wiper-blade-set"),
      matched: "replaces PartsWorks PW-WP-1050",
    });
  });

  test("a number hit ranks above word matches, newer or not", async () => {
    // Newer, and its name says the number: still second, after the product that has it.
    const gapTool = await insertProduct(t.database.db, {
      name: "Gap gauge for IK20TT plugs",
      shortDescription: "Feeler gauge",
    });
    const found = await search("IK20TT");
    expect(found.map((p) => p._id)[1]).toBe(gapTool.id);
    expect(found[0]).toMatchObject({
      name: nameOf("iridium-spark-plugs"),
      matched: "matches Denso IK20TT",
    });
    expect(found[1]).not.toHaveProperty("matched");
    await t.database.db.delete(products).where(eq(products.id, gapTool.id));
  });

  test("two or three characters match a number only exactly", async () => {
    // "5Q0" starts Volkswagen numbers of two products, but is no number by itself.
    for (const p of await search("5Q0")) expect(p).not.toHaveProperty("matched");
    const [radiator] = await search("5Q0121");
    expect(radiator).toMatchObject({
      name: nameOf("aluminium-radiator"),
      matched: "matches OE 5Q0 121 251 GD (Volkswagen)",
    });
  });

  test("a word search says nothing about numbers", async () => {
    const [first] = await search("spark plugs");
    expect(first).not.toHaveProperty("matched");
  });

  test("every product has its part number and category; the product page lists its numbers", async () => {
    const { items } = await list({});
    expect(items).toHaveLength(demoProducts.length);
    for (const p of items) {
      expect(p.partNumber).toMatch(/^PW-[A-Z]{2}-\d{4}$/);
      expect(p.category).toBeTruthy();
    }
    const kit = items.find((p) => p.name === nameOf("brake-disc-kit"))!;
    const page = await t.app.inject({ method: "GET", url: `/api/products/${kit._id}` });
    expect(page.json().crossReferences).toContainEqual({
      kind: "OE",
      brand: "Toyota",
      number: "04465-02220",
    });
    for (const p of demoProducts) {
      expect(p.crossReferences.length).toBeGreaterThanOrEqual(2);
      expect(p.crossReferences.length).toBeLessThanOrEqual(5);
    }
  });
});

describe("filters", () => {
  test("by category, alone and with a search", async () => {
    const filters = await list({ category: "Filters" });
    expect(names(filters.items).sort()).toEqual(
      [nameOf("air-filter"), nameOf("oil-filter")].sort(),
    );
    expect(filters.total).toBe(2);
    expect(names((await list({ category: "Filters", q: "oil" })).items)).toEqual([
      nameOf("oil-filter"),
    ]);
    expect((await list({ category: "Brakes", q: "oil filter" })).items).toEqual([]);
  });

  test("by price range, both ends included", async () => {
    const { items, total } = await list({ minPrice: "15.90", maxPrice: "50" });
    expect(items.length).toBeGreaterThan(0);
    expect(total).toBe(items.length);
    for (const p of items) expect(p.price >= 15.9 && p.price <= 50).toBe(true);
    expect(names(items)).toContain(nameOf("wiper-blade-set")); // 15.90 exactly
    const all = await list({});
    expect(items.length).toBe(all.items.filter((p) => p.price >= 15.9 && p.price <= 50).length);
  });

  test("in stock: only products with at least one minimum order on sale", async () => {
    const [first] = (await list({ sort: "name" })).items;
    // Orders can leave less than a minimum order on sale (the admin form cannot).
    await t.database.db
      .update(products)
      .set({ availableQuantity: first!.minimumOrder - 1 })
      .where(eq(products.id, first!._id));
    const inStock = await list({ inStock: "true" });
    expect(names(inStock.items)).not.toContain(first!.name);
    expect(inStock.total).toBe(demoProducts.length - 1);
    expect((await list({ inStock: "false" })).total).toBe(demoProducts.length);
  });

  test.each([
    ["category", "Tyres"],
    ["minPrice", "-1"],
    ["maxPrice", "cheap"],
    ["inStock", "yes"],
  ])("answers 400 for %s=%s", async (key, value) => {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/products?${new URLSearchParams({ [key]: value })}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "validation" });
  });
});

describe("suggestions for an empty result", () => {
  const suggest = (q: string) =>
    t.app.inject({ method: "GET", url: `/api/products/suggestions?${new URLSearchParams({ q })}` });

  test("names and categories spelt like the search", async () => {
    expect(await search("brk")).toEqual([]);
    const res = await suggest("brk");
    expect(res.statusCode).toBe(200);
    expect(res.json().didYouMean).toContain("Brakes");
    expect((await suggest("radiatr")).json().didYouMean[0]).toBe(nameOf("aluminium-radiator"));
  });

  test("nothing like it: no suggestions; an empty search is refused", async () => {
    expect((await suggest("qqqqqq")).json()).toEqual({ didYouMean: [] });
    expect((await suggest("")).statusCode).toBe(400);
  });
});

describe("admin: part numbers, categories and cross-references", () => {
  const body = (overrides: object = {}) => ({
    name: `Brake pad set ${randomUUID().slice(0, 6)}`,
    partNumber: `PW-BP-${randomUUID().slice(0, 6)}`,
    category: "Brakes",
    price: 39.5,
    minimumOrder: 2,
    availableQuantity: 40,
    warranty: 12,
    shortDescription: "Low-dust ceramic front pads",
    img: "/images/products/brake-disc-kit.svg",
    ...overrides,
  });
  const post = (payload: object) => call(admin, "POST", "/api/products", payload);
  const patch = (id: string, payload: object) =>
    call(admin, "PATCH", `/api/products/${id}`, payload);

  test("a new product with cross-references is found by them", async () => {
    const res = await post(
      body({
        partNumber: "pw-bp-4410",
        crossReferences: [
          { kind: "OE", brand: "Honda", number: "45022-T2A-A01" },
          { kind: "competitor", brand: "Ferodo", number: "FDB 4955" },
        ],
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().product).toMatchObject({
      partNumber: "PW-BP-4410",
      category: "Brakes",
      crossReferences: [
        { kind: "OE", brand: "Honda", number: "45022-T2A-A01" },
        { kind: "competitor", brand: "Ferodo", number: "FDB 4955" },
      ],
    });
    const [first] = await search("45022t2aa01");
    expect(first).toMatchObject({
      _id: res.json().product._id,
      matched: "matches OE 45022-T2A-A01 (Honda)",
    });
  });

  test("a part number used by another product, however written, is refused with 409", async () => {
    const res = await post(body({ partNumber: "pw fl 1104" }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error: "conflict",
      message: "Part number PW FL 1104 is already used by another product",
      fields: { partNumber: "Part number PW FL 1104 is already used by another product" },
    });
    const created = (await post(body())).json().product;
    const edit = await patch(created._id, { partNumber: "PW-FL-1104" });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe("Part number PW-FL-1104 is already used by another product");
  });

  test.each([
    [{ category: "Tyres" }, "category", "Choose a category"],
    [{ category: undefined }, "category", "Choose a category"],
    [{ partNumber: "" }, "partNumber", "Part number is Required"],
    [{ partNumber: "PW<script>" }, "partNumber", expect.stringContaining("Use letters, digits")],
    [{ partNumber: "-PW-1" }, "partNumber", expect.stringContaining("Use letters, digits")],
    [{ partNumber: "X".repeat(41) }, "partNumber", "Must be 40 characters or shorter"],
    [
      { crossReferences: [{ kind: "OEM", brand: "Ford", number: "1" }] },
      "crossReferences.0.kind",
      "Choose OE, competitor or superseded",
    ],
    [
      { crossReferences: [{ kind: "OE", brand: "", number: "1" }] },
      "crossReferences.0.brand",
      "Brand is Required",
    ],
    [
      {
        crossReferences: [
          { kind: "OE", brand: "Ford", number: "AB-1" },
          { kind: "OE", brand: "Ford", number: "ab 1" },
        ],
      },
      "crossReferences",
      "Each number once",
    ],
  ])("refuses %j with 400 on %s", async (overrides, field, message) => {
    const res = await post(body(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({ [field]: message });
  });

  test("an edit replaces the cross-references only when it sends them", async () => {
    const created = (
      await post(body({ crossReferences: [{ kind: "OE", brand: "Ford", number: "1234567" }] }))
    ).json().product;
    const priceOnly = await patch(created._id, { price: 41 });
    expect(priceOnly.json().crossReferences).toEqual([
      { kind: "OE", brand: "Ford", number: "1234567" },
    ]);
    const replaced = await patch(created._id, {
      category: "Other",
      crossReferences: [{ kind: "superseded", brand: "PartsWorks", number: "PW-OLD-1" }],
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      category: "Other",
      crossReferences: [{ kind: "superseded", brand: "PartsWorks", number: "PW-OLD-1" }],
    });
    expect(await search("1234567")).toEqual([]);
  });
});

test("paging through a ranked search gives the same order as one long page", async () => {
  const { createCatalogService } = await import("./service");
  const catalog = createCatalogService(t.database.db);
  const word = `zorblax${Date.now()}`;
  const add = (partNumber: string, name: string, description: string) =>
    catalog.create("search-admin@example.com", {
      partNumber,
      name,
      shortDescription: description,
      category: "Other",
      price: 1,
      availableQuantity: 1,
      minimumOrder: 1,
      warranty: 0,
      img: "/images/products/oil-filter.svg",
      crossReferences: [],
    });
  // Rank 2 (description), rank 1 (name) and rank 0 (the number) interleaved in time.
  await add(`ZD-${Date.now()}-1`, "Plain part one", `Mentions ${word}`);
  await add(`ZX-${Date.now()}-1`, `The ${word} kit`, "Nothing");
  await add(`${word}`, "Numbered part", "Nothing");
  await add(`ZX-${Date.now()}-2`, `Another ${word}`, "Nothing");
  await add(`ZD-${Date.now()}-2`, "Plain part two", `Also ${word}`);
  const page = (limit: number, offset: number) =>
    catalog.page({ q: word, sort: "newest", limit, offset });
  const all = (await page(10, 0)).map((p) => p.name);
  expect(all).toEqual([
    "Numbered part",
    `Another ${word}`,
    `The ${word} kit`,
    "Plain part two",
    "Plain part one",
  ]);
  const paged: string[] = [];
  for (const offset of [0, 2, 4]) paged.push(...(await page(2, offset)).map((p) => p.name));
  expect(paged).toEqual(all);
  expect((await page(1, 3)).map((p) => p.name)).toEqual(["Plain part two"]);
  expect(await page(2, 5)).toEqual([]);
});

test("a search matching many products gives, page by page, the order of one sorted read", async () => {
  // Past 500 matches a page is no longer read whole and sorted: each rank walks the sort order
  // (search.ts, decision 009). 20 number hits (rank 0), 300 names (1), 900 descriptions (2),
  // interleaved in time and price; a page past the first 500 rows is still read whole, so it is
  // the reference the walked pages must agree with.
  const { createCatalogService } = await import("./service");
  const catalog = createCatalogService(t.database.db);
  const word = `quorvex${Date.now()}`;
  await t.database.pool.query(
    `insert into products (name, img, price_cents, minimum_order, available_quantity,
       short_description, warranty_months, creator_email, created_at, part_number, category)
     select case when i % 4 = 0 then $1 || ' seal ' || i else 'Head gasket ' || i end,
            '/images/products/oil-filter.svg', 100 + (i * 7919) % 5000, 1, 5,
            case when i % 4 = 0 then 'Plain' else 'Fits with a ' || $1 || ' seal' end,
            12, 'search-admin@example.com', now() - make_interval(secs => i),
            case when i % 60 = 1 then upper($1) || 'SEAL' || i else 'QV-' || $2 || '-' || i end,
            'Engine'
     from generate_series(1, 1200) as i`,
    [word, Date.now()],
  );
  for (const sort of ["newest", "price_asc"] as const) {
    const q = `${word} seal`;
    const reference = await catalog.page({ q, sort, limit: 600, offset: 0 });
    expect(reference.slice(0, 20).every((p) => p.matched?.startsWith("matches part number"))).toBe(
      true,
    );
    expect(reference.slice(20, 320).every((p) => p.name.startsWith(word))).toBe(true);
    expect(reference.slice(320).every((p) => p.name.startsWith("Head gasket"))).toBe(true);
    const paged = [];
    for (let offset = 0; offset < 500; offset += 25) {
      paged.push(...(await catalog.page({ q, sort, limit: 25, offset })));
    }
    expect(paged.map((p) => p._id)).toEqual(reference.slice(0, 500).map((p) => p._id));
    expect(paged.slice(0, 20).map((p) => p.matched)).toEqual(
      reference.slice(0, 20).map((p) => p.matched),
    );
  }
});
