import { beforeAll, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { products } from "./tables";
import { insertProduct } from "../../../tests/support/factories";
import { appForTests } from "../../../tests/support/store";

const { t } = appForTests();
const base = new Date("2026-01-01T00:00:00Z").getTime();

beforeAll(async () => {
  // Five products with known prices, names and ages (the oldest first).
  const specs = [
    { name: "Brake disc", priceCents: 4500, shortDescription: "Vented front disc" },
    { name: "Alternator", priceCents: 19900, shortDescription: "120 A, 12 V" },
    { name: "Clutch kit", priceCents: 15000, shortDescription: "Three-piece kit, 50% off" },
    { name: "Oil filter", priceCents: 799, shortDescription: "Spin-on filter" },
    { name: "Wiper blade", priceCents: 1299, shortDescription: "Flat beam, front pair" },
  ];
  for (const [i, s] of specs.entries()) {
    await insertProduct(t.database.db, { ...s, createdAt: new Date(base + i * 1000) });
  }
});

const list = (query: string) => t.app.inject({ method: "GET", url: `/api/products${query}` });
const names = (res: { json(): unknown }) => (res.json() as { name: string }[]).map((p) => p.name);

test("lists products newest first with the total in X-Total-Count", async () => {
  const res = await list("");
  expect(res.statusCode).toBe(200);
  expect(res.headers["x-total-count"]).toBe("5");
  expect(names(res)).toEqual([
    "Wiper blade",
    "Oil filter",
    "Clutch kit",
    "Alternator",
    "Brake disc",
  ]);
});

test("answers prices in currency units and the spec's field names", async () => {
  const [first] = (await list("?limit=1")).json();
  expect(first).toMatchObject({
    name: "Wiper blade",
    price: 12.99,
    minimumOrder: 2,
    availableQuantity: 100,
    warranty: 12,
  });
  expect(Object.keys(first).sort()).toEqual(
    [
      "_id",
      "img",
      "name",
      "partNumber",
      "category",
      "price",
      "minimumOrder",
      // Issue 54: what retail buyers order at least, and the trade's pack size.
      "retailMinimum",
      "packSize",
      "availableQuantity",
      "shortDescription",
      "warranty",
      "createdAt",
      "coreDeposit",
      // The currency of its prices: the request's market's (docs/pricing.md "The market chosen").
      "currency",
      // Its backorder offer (DESIGN.md §8; where it is on sale: the product's own answer).
      "backorder",
    ].sort(),
  );
});

test("pages with limit and offset", async () => {
  const page = await list("?limit=2&offset=2");
  expect(names(page)).toEqual(["Clutch kit", "Alternator"]);
  expect(page.headers["x-total-count"]).toBe("5");
  expect(names(await list("?limit=2&offset=4"))).toEqual(["Brake disc"]);
  expect(names(await list("?offset=50"))).toEqual([]);
});

test("sorts by price both ways and by name", async () => {
  expect(names(await list("?sort=price_asc"))).toEqual([
    "Oil filter",
    "Wiper blade",
    "Brake disc",
    "Clutch kit",
    "Alternator",
  ]);
  expect(names(await list("?sort=price_desc"))[0]).toBe("Alternator");
  expect(names(await list("?sort=name"))).toEqual([
    "Alternator",
    "Brake disc",
    "Clutch kit",
    "Oil filter",
    "Wiper blade",
  ]);
});

test("searches name and description, case-insensitively, with wildcards taken literally", async () => {
  const byName = await list("?q=FILTER");
  expect(names(byName)).toEqual(["Oil filter"]);
  expect(byName.headers["x-total-count"]).toBe("1");
  expect(names(await list("?q=front"))).toEqual(["Wiper blade", "Brake disc"]);
  expect(names(await list(`?q=${encodeURIComponent("50%")}`))).toEqual(["Clutch kit"]);
  expect(names(await list(`?q=${encodeURIComponent("%")}`))).toEqual(["Clutch kit"]);
  expect(names(await list("?q=nothing-like-this"))).toEqual([]);
});

test.each([
  "?limit=0",
  "?limit=101",
  "?limit=abc",
  "?offset=-1",
  "?offset=10001",
  "?sort=cheapest",
  `?q=${"x".repeat(101)}`,
])("answers 400 with {error, message} for the bad query %s", async (query) => {
  const res = await list(query);
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: "validation", message: expect.any(String) });
});

test("answers one product by id, 404 when missing, 400 when malformed", async () => {
  const [row] = await t.database.db.select().from(products).limit(1);
  const found = await t.app.inject({ method: "GET", url: `/api/products/${row!.id}` });
  expect(found.statusCode).toBe(200);
  expect(found.json()).toMatchObject({ _id: row!.id, name: row!.name });

  const missing = await t.app.inject({
    method: "GET",
    url: "/api/products/00000000-0000-4000-8000-000000000000",
  });
  expect(missing.statusCode).toBe(404);
  expect(missing.json()).toEqual({ error: "not_found", message: "Product not found" });

  const malformed = await t.app.inject({ method: "GET", url: "/api/products/not-an-id" });
  expect(malformed.statusCode).toBe(400);
  expect(malformed.json()).toMatchObject({ error: "validation" });
});

test("public reads carry an ETag; a matching If-None-Match gets a 304 with no body", async () => {
  const first = await list("?limit=2");
  const etag = first.headers.etag as string;
  expect(etag).toBeTruthy();
  expect(first.headers["cache-control"]).toBe("public, no-cache");
  const again = await t.app.inject({
    method: "GET",
    url: "/api/products?limit=2",
    headers: { "if-none-match": etag },
  });
  expect(again.statusCode).toBe(304);
  expect(again.body).toBe("");
});

test("a change made elsewhere (another process, straight SQL) reaches the cached answers", async () => {
  const [row] = await t.database.db.select().from(products).limit(1);
  const before = (await t.app.inject({ method: "GET", url: `/api/products/${row!.id}` })).json();
  await list("?sort=name"); // cached now
  await t.database.db
    .update(products)
    .set({ availableQuantity: before.availableQuantity + 7 })
    .where(eq(products.id, row!.id));
  // The trigger's NOTIFY clears the cache; wait for it rather than for time.
  await expect
    .poll(
      async () =>
        (await t.app.inject({ method: "GET", url: `/api/products/${row!.id}` })).json()
          .availableQuantity,
    )
    .toBe(before.availableQuantity + 7);
  await expect
    .poll(
      async () =>
        (await list("?sort=name")).json().find((p: { _id: string }) => p._id === row!.id)
          ?.availableQuantity,
    )
    .toBe(before.availableQuantity + 7);
});

test("the list total follows products added or removed elsewhere", async () => {
  const before = Number((await list("?limit=1")).headers["x-total-count"]);
  const extra = await insertProduct(t.database.db, { name: "Arrived through SQL" });
  await expect
    .poll(async () => Number((await list("?limit=1")).headers["x-total-count"]))
    .toBe(before + 1);
  await t.database.db.delete(products).where(eq(products.id, extra.id));
  await expect
    .poll(async () => Number((await list("?limit=1")).headers["x-total-count"]))
    .toBe(before);
});
