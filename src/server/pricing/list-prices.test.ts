import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { CatalogReadCache } from "../catalog/read-cache";
import { yourListPrices } from "./list-prices";
import type { OverlayEntry } from "./pricing";
import { RETAIL_GROUP_ID } from "./tables";

/**
 * A company buyer's own prices on the catalog list (docs/pricing.md): added to
 * the page's items for them, while everyone else gets the shared cached answer unchanged.
 */
const TOKEN = "metrics-token-for-the-list-prices-test-0123456789";
let buyerA: TestAccount & { id: string };
let buyerB: TestAccount & { id: string };
let noCompany: TestAccount;
let noListMember: TestAccount;
let companyA: { id: string };
let listAId: string;
/** Products named "Listprice part …", so a search finds only them; list prices $20.00, $30.00, $40.00. */
let p1: string, p2: string, p3: string;
const answered = vi.spyOn(CatalogReadCache.prototype, "answerFor");

const { t, call, admin } = storeForTests({
  admin: "list-prices-admin@example.com",
  env: { METRICS_TOKEN: TOKEN },
});
beforeAll(async () => {
  const made = [];
  for (const [i, cents] of [2000, 3000, 4000].entries()) {
    made.push(
      await insertProduct(t.database.db, {
        name: `Listprice part ${i + 1}`,
        priceCents: cents,
        minimumOrder: 1,
      }),
    );
  }
  [p1, p2, p3] = made.map((p) => p.id) as [string, string, string];
  const listA = await createPriceList(t.app, admin, [
    {
      productId: p1,
      unitPrice: 18,
      breaks: [
        { minQty: 10, unitPrice: 16.5 },
        { minQty: 50, unitPrice: 15 },
      ],
    },
    // Dearer than the list price: the list price stands, and the card says nothing.
    { productId: p2, unitPrice: 35 },
  ]);
  listAId = listA.id;
  const listB = await createPriceList(t.app, admin, [{ productId: p1, unitPrice: 19.25 }]);
  companyA = await createCompany(t.app, admin, { priceListId: listA.id });
  const companyB = await createCompany(t.app, admin, { priceListId: listB.id });
  // A retail company: a trade group's members get their quantities on the cards (quantities.test.ts).
  const companyC = await createCompany(t.app, admin, { customerGroupId: RETAIL_GROUP_ID });
  buyerA = await joinCompany(t.app, admin, companyA.id, "buyer");
  buyerB = await joinCompany(t.app, admin, companyB.id, "buyer");
  noListMember = await joinCompany(t.app, admin, companyC.id, "buyer");
  noCompany = await signUp(t.app);
});
afterAll(async () => {
  answered.mockRestore();
});

const get = (url: string, who?: TestAccount) => call(who, "GET", url);
const items = async (url: string, who?: TestAccount) => {
  const res = await get(url, who);
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, unknown>[];
};
const byId = (list: Record<string, unknown>[], id: string) => list.find((i) => i._id === id)!;
const PAGE = "/api/products?q=listprice&sort=name";

test("a buyer of company A sees A's price on the list; company B's buyer sees B's", async () => {
  const a = await items(PAGE, buyerA);
  expect(a.map((i) => i._id)).toEqual([p1, p2, p3]);
  expect(byId(a, p1)).toMatchObject({
    price: 20,
    yourPrice: 18,
    yourLowestPrice: { minQty: 50, unitPrice: 15 },
  });
  // A price list dearer than the list price, and a product the list does not name: nothing added.
  for (const id of [p2, p3]) {
    expect(byId(a, id)).not.toHaveProperty("yourPrice");
    expect(byId(a, id)).not.toHaveProperty("yourLowestPrice");
  }
  const b = await items(PAGE, buyerB);
  expect(byId(b, p1)).toMatchObject({ price: 20, yourPrice: 19.25 });
  expect(byId(b, p1)).not.toHaveProperty("yourLowestPrice");
});

test("a buyer's priced page is private to them: not stored, no shared ETag", async () => {
  const res = await get(PAGE, buyerA);
  expect(res.headers["cache-control"]).toBe("private, no-store");
  expect(res.headers.etag).toBeUndefined();
  expect(res.headers["x-total-count"]).toBe("3");
  // The shared answer's ETag is not theirs: revalidating with it gets their prices in full.
  const shared = (await get(PAGE)).headers.etag as string;
  const again = await t.app.inject({
    method: "GET",
    url: PAGE,
    headers: { cookie: buyerA.cookie, "if-none-match": shared },
  });
  expect(again.statusCode).toBe(200);
  expect(byId(again.json(), p1).yourPrice).toBe(18);
});

test("the landing page's newest products and every list page carry the buyer's prices too", async () => {
  const newest = await items("/api/products?limit=3&sort=newest", buyerA);
  expect(newest.find((i) => i._id === p1)).toMatchObject({ yourPrice: 18 });
  const all = await items("/api/products?limit=24", buyerA);
  expect(all.find((i) => i._id === p1)).toMatchObject({ yourPrice: 18 });
});

test("a visitor, a customer without a company, a member of a retail company without a price list and an admin get the shared answer unchanged", async () => {
  const anonymous = await get(PAGE);
  expect(anonymous.headers["cache-control"]).toBe("public, no-cache");
  expect(JSON.stringify(anonymous.json())).not.toContain("your");
  for (const who of [noCompany, noListMember, admin]) {
    const res = await get(PAGE, who);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(anonymous.body);
    expect(res.headers.etag).toBe(anonymous.headers.etag);
    expect(res.headers["cache-control"]).toBe("public, no-cache");
    expect(res.headers["x-total-count"]).toBe(anonymous.headers["x-total-count"]);
  }
});

test("company prices leave the read cache on: a buyer's page is the cached page overlaid, and visitors are still answered from the cache without a database read", async () => {
  const hits = async () => {
    const text = (
      await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })
    ).body;
    const line = text
      .split("\n")
      .find((l) => l.startsWith('store_catalog_cache_lookups_total{result="hit"} '));
    return line === undefined ? 0 : Number(line.split(" ")[1]);
  };
  const url = "/api/products?q=listprice&sort=name&limit=5";
  // Until the set-up's NOTIFYs have come and cleared the cache, an answer may be the handler's.
  await expect
    .poll(async () => {
      await get(url);
      return answered.mock.results.at(-1)?.value !== undefined;
    })
    .toBe(true);
  // The buyer's page comes from the cached entry (a hit), not from a fresh read of the list,
  // their prices from the company price cache and who they are from the list's session cache
  // (auth/session-cache.ts): no statement at all once their session was read.
  await items(url, buyerA);
  const seen = vi.spyOn(t.database.pool, "query");
  const before = await hits();
  seen.mockClear();
  expect(byId(await items(url, buyerA), p1).yourPrice).toBe(18);
  const buyerQueries = seen.mock.calls.length;
  expect(await hits()).toBe(before + 1);
  expect(buyerQueries).toBe(0);
  // A visitor right after is answered by the route's hook from the cache, with no query at all.
  seen.mockClear();
  const visitor = await get(url);
  const visitorQueries = seen.mock.calls.length;
  seen.mockRestore();
  expect(visitor.statusCode).toBe(200);
  expect(answered.mock.results.at(-1)?.value).toBeDefined();
  expect(visitorQueries).toBe(0);
});

test("a member removed from the company pays list prices on their next page", async () => {
  const member = await joinCompany(t.app, admin, companyA.id, "buyer");
  expect(byId(await items(PAGE, member), p1).yourPrice).toBe(18);
  // Kept in memory now (a second page reads no entries); the removal's own answer clears it.
  expect(byId(await items(PAGE, member), p1).yourPrice).toBe(18);
  const removed = await call(admin, "DELETE", `/api/companies/${companyA.id}/members/${member.id}`);
  expect(removed.statusCode).toBe(204);
  expect(byId(await items(PAGE, member), p1)).not.toHaveProperty("yourPrice");
});

test("a buyer who signs out, or whose session is ended, gets the shared list with that cookie as soon as the store hears of it", async () => {
  for (const end of ["sign-out", "revoked"] as const) {
    const member = await joinCompany(t.app, admin, companyA.id, "buyer");
    // Read once and kept: the next pages read no session.
    expect(byId(await items(PAGE, member), p1).yourPrice).toBe(18);
    expect(byId(await items(PAGE, member), p1).yourPrice).toBe(18);
    const ended =
      end === "sign-out"
        ? await call(member, "POST", "/api/auth/sign-out", {})
        : await t.database.pool.query("delete from session where user_id = $1", [member.id]);
    if ("statusCode" in ended) expect(ended.statusCode).toBe(200);
    // The session's end is heard through NOTIFY (milliseconds), well before the cache's 30 s.
    await expect
      .poll(async () => byId(await items(PAGE, member), p1), { timeout: 5_000 })
      .not.toHaveProperty("yourPrice");
  }
});

test("buyers on the same list get the same priced page; a change to the list shows on the next one", async () => {
  const second = await joinCompany(t.app, admin, companyA.id, "buyer");
  const first = await get(PAGE, buyerA);
  expect((await get(PAGE, second)).body).toBe(first.body);
  expect((await get(PAGE, buyerA)).body).toBe(first.body);
  const put = await call(admin, "PUT", `/api/price-lists/${listAId}/entries/${p3}`, {
    unitPrice: 39,
    breaks: [],
  });
  expect(put.statusCode).toBe(200);
  for (const who of [buyerA, second]) {
    expect(byId(await items(PAGE, who), p3)).toMatchObject({ yourPrice: 39 });
    expect(byId(await items(PAGE, who), p1)).toMatchObject({ yourPrice: 18 });
  }
  const removed = await call(admin, "DELETE", `/api/price-lists/${listAId}/entries/${p3}`);
  expect(removed.statusCode).toBe(204);
  expect(byId(await items(PAGE, buyerA), p3)).not.toHaveProperty("yourPrice");
});

test("yourListPrices: the price at the minimum order, a break it reaches included, and the deepest break", () => {
  const entry: OverlayEntry = {
    unitPriceCents: 1200,
    breaks: [
      { minQty: 10, unitPriceCents: 1100 },
      { minQty: 50, unitPriceCents: 980 },
    ],
  };
  const overlay = new Map([
    ["a", entry],
    ["b", entry],
    ["c", { unitPriceCents: 1600, breaks: [{ minQty: 5, unitPriceCents: 1400 }] }],
    ["d", { unitPriceCents: 1600, breaks: [] }],
  ]);
  // A trade buyer (their group keeps trade minimums): priced at the trade minimum, and told it.
  const garage = { id: "g", name: "Garage", tradeMinimums: true };
  const part = (_id: string, minimumOrder: number) => ({
    _id,
    price: 15,
    minimumOrder,
    retailMinimum: 1,
    packSize: 1,
  });
  const prices = yourListPrices({ entries: overlay, group: garage }, "USD", [
    part("a", 1),
    // A minimum order of 10 reaches the first break.
    part("b", 10),
    // Dearer unit price, a break under the list price: the list price, and the break.
    part("c", 1),
    // Dearer and no break: no price to show, the buyer's quantities only.
    part("d", 1),
    // Not on the list.
    part("e", 1),
  ]);
  const trade = (yourMinimumOrder: number) => ({ yourMinimumOrder, yourPackSize: 1 });
  expect(Object.fromEntries(prices)).toEqual({
    a: { yourPrice: 12, yourLowestPrice: { minQty: 50, unitPrice: 9.8 }, ...trade(1) },
    b: { yourPrice: 11, yourLowestPrice: { minQty: 50, unitPrice: 9.8 }, ...trade(10) },
    c: { yourPrice: 15, yourLowestPrice: { minQty: 5, unitPrice: 14 }, ...trade(1) },
    d: trade(1),
    e: trade(1),
  });
});
