import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { createAnotherProcess, type TestApp } from "../../../tests/support/test-app";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { hearCatalogChannel } from "../../../tests/support/catalog-channel";
import { companies, companyMembers } from "../companies/tables";
import { customerGroups, GARAGE_GROUP_ID, priceListEntries, priceLists } from "./tables";
import { user } from "../users/tables";
import { CompanyPriceCache } from "./list-prices";

/**
 * Company prices kept in memory (docs/pricing.md): cleared in every process by
 * the `prices` NOTIFY of migration 0034, read from the database while the listener is not
 * hearing, and a list too large to keep read per page.
 */
let other: Awaited<ReturnType<typeof createAnotherProcess>>;
let p1: string, p2: string;
let list: { id: string };
let company: { id: string };
let buyer: TestAccount & { id: string };
/** A second buyer, removed by a test. */
let member: TestAccount & { id: string };
const invalidated = vi.spyOn(CompanyPriceCache.prototype, "invalidate");

const { t, call, admin } = storeForTests({ admin: "price-cache-admin@example.com" });
beforeAll(async () => {
  p1 = (await insertProduct(t.database.db, { name: "Cachedprice part 1", priceCents: 2000 })).id;
  p2 = (await insertProduct(t.database.db, { name: "Cachedprice part 2", priceCents: 3000 })).id;
  list = await createPriceList(t.app, admin, [{ productId: p1, unitPrice: 18 }]);
  company = await createCompany(t.app, admin, { priceListId: list.id });
  buyer = await joinCompany(t.app, admin, company.id, "buyer");
  member = await joinCompany(t.app, admin, company.id, "buyer");
  // Started once the invitations are accepted: each process has its own local mailbox, and the
  // other's mail jobs could send an invitation to theirs.
  other = await createAnotherProcess(t, { ADMIN_EMAILS: "price-cache-admin@example.com" });
});
afterAll(async () => {
  invalidated.mockRestore();
  await other.close();
});

const PAGE = "/api/products?q=cachedprice&sort=name";
const yourPrices = async (app: TestApp["app"], who: TestAccount) => {
  const res = await app.inject({ method: "GET", url: PAGE, headers: { cookie: who.cookie } });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries(
    (res.json() as { _id: string; yourPrice?: number }[]).map((i) => [i._id, i.yourPrice]),
  );
};
/** How many times the other process's cache has been cleared (by what it heard). */
const clearedInOther = () =>
  invalidated.mock.contexts.filter(
    (c) => (c as unknown as { db: unknown }).db === other.database.db,
  ).length;
/** The other process's statements for one buyer page. */
async function otherStatements(who: TestAccount) {
  const seen = vi.spyOn(other.database.pool, "query");
  try {
    const prices = await yourPrices(other.app, who);
    return { prices, statements: seen.mock.calls.map((c) => JSON.stringify(c[0])) };
  } finally {
    seen.mockRestore();
  }
}

test("a change made in one process reaches the other's buyer prices through NOTIFY", async () => {
  // Once the other process's listener hears, its second page of the buyer's reads nothing: the
  // prices and the session are both kept (auth/session-cache.ts).
  await expect
    .poll(async () => {
      await yourPrices(other.app, buyer);
      return (await otherStatements(buyer)).statements.length;
    })
    .toBe(0);
  expect((await otherStatements(buyer)).prices).toEqual({ [p1]: 18, [p2]: undefined });

  // Changed through the first process's API: the other hears it, and its very next page has it.
  const heard = clearedInOther();
  const put = await call(admin, "PUT", `/api/price-lists/${list.id}/entries/${p2}`, {
    unitPrice: 25,
    breaks: [],
  });
  expect(put.statusCode).toBe(200);
  await expect.poll(clearedInOther).toBeGreaterThan(heard);
  expect((await otherStatements(buyer)).prices).toEqual({ [p1]: 18, [p2]: 25 });
});

test("kept while heard, read from the database while not, and a list too large to keep read per page", async () => {
  const reads: string[] = [];
  const cache = new CompanyPriceCache(t.database.db, "USD");
  cache.onRead = (what) => reads.push(what);
  const cents = async () =>
    Object.fromEntries(
      [...(await cache.overlay(buyer.id, [p1, p2]))].map(([id, e]) => [id, e.unitPriceCents]),
    );
  // Not (yet) hearing changes: every call reads the buyer's group and the page's entries.
  expect(await cents()).toEqual({ [p1]: 1800, [p2]: 2500 });
  expect(await cents()).toEqual({ [p1]: 1800, [p2]: 2500 });
  expect(reads.sort()).toEqual(["member", "member", "page", "page"]);

  // Hearing: the buyer's list is read once, whole, then kept until a change clears it.
  reads.length = 0;
  cache.setListening(true);
  await Promise.all([cents(), cents()]);
  expect(await cents()).toEqual({ [p1]: 1800, [p2]: 2500 });
  expect(reads).toEqual(["member", "list"]);
  // A caller who has this read's prices already (`known`) gets no entries looked up again.
  const { sameFor } = await cache.overlayOf(buyer.id, [p1, p2]);
  expect(sameFor).toBeDefined();
  const again = await cache.overlayOf(buyer.id, [p1, p2], sameFor);
  expect([again.sameFor, again.entries.size]).toEqual([sameFor, 0]);
  expect((await cache.overlayOf(buyer.id, [p1, p2], "another read")).entries.size).toBe(2);
  await t.database.db
    .update(priceListEntries)
    .set({ unitPriceCents: 1700 })
    .where(eq(priceListEntries.productId, p1));
  expect((await cents())[p1]).toBe(1800); // this cache is not told (no listener of its own)
  cache.invalidate();
  expect((await cents())[p1]).toBe(1700);
  expect((await cache.overlayOf(buyer.id, [p1, p2], sameFor)).entries.size).toBe(2);
  expect(reads).toEqual(["member", "list", "member", "list"]);

  // Deaf again: back to the database at once.
  cache.setListening(false);
  reads.length = 0;
  await cents();
  expect(reads.sort()).toEqual(["member", "page"]);

  // A list longer than the cache keeps: which list is kept, its entries are read per page.
  const small = new CompanyPriceCache(t.database.db, "USD", { maxListEntries: 1 });
  const smallReads: string[] = [];
  small.onRead = (what) => smallReads.push(what);
  small.setListening(true);
  for (let i = 0; i < 2; i++) {
    const overlay = await small.overlay(buyer.id, [p1, p2]);
    expect(overlay.get(p1)?.unitPriceCents).toBe(1700);
    expect(overlay.get(p2)?.unitPriceCents).toBe(2500);
  }
  expect(smallReads).toEqual(["member", "list", "page", "page"]);
  // Put back, and wait until the other process has heard it: a notification still on its way
  // would clear the other's cache in the middle of the next test's "kept" (seen under load).
  const heard = clearedInOther();
  await t.database.db
    .update(priceListEntries)
    .set({ unitPriceCents: 1800 })
    .where(eq(priceListEntries.productId, p1));
  await expect.poll(clearedInOther).toBeGreaterThan(heard);
});

test("a member removed in one process pays list prices in the other as soon as it hears", async () => {
  await expect.poll(async () => (await yourPrices(other.app, member))[p1]).toBe(18);
  // Kept: the page reads nothing.
  expect((await otherStatements(member)).statements).toHaveLength(0);
  const heard = clearedInOther();
  const removed = await call(admin, "DELETE", `/api/companies/${company.id}/members/${member.id}`);
  expect(removed.statusCode).toBe(204);
  // The writing process: at once, its own answer cleared its cache.
  expect((await yourPrices(t.app, member))[p1]).toBeUndefined();
  // The other: once the notification has come (waited for, not slept on).
  await expect.poll(clearedInOther).toBeGreaterThan(heard);
  expect((await yourPrices(other.app, member))[p1]).toBeUndefined();
});

test("every kind of write that changes a buyer's prices sends NOTIFY 'prices'", async () => {
  const channel = hearCatalogChannel(t);
  const db = t.database.db;
  const [spare] = await db
    .insert(priceLists)
    .values({ name: "Spare list for notify", currency: "USD" })
    .returning();
  const writes: [string, () => Promise<unknown>][] = [
    [
      "an entry added",
      () =>
        db
          .insert(priceListEntries)
          .values({ priceListId: spare!.id, productId: p2, unitPriceCents: 100, breaks: [] }),
    ],
    [
      "an entry changed",
      () =>
        db
          .update(priceListEntries)
          .set({ unitPriceCents: 90 })
          .where(eq(priceListEntries.priceListId, spare!.id)),
    ],
    [
      "an entry removed",
      () => db.delete(priceListEntries).where(eq(priceListEntries.priceListId, spare!.id)),
    ],
    [
      "a list's currency",
      () => db.update(priceLists).set({ currency: "EUR" }).where(eq(priceLists.id, spare!.id)),
    ],
    [
      "a company's list",
      () =>
        db.update(companies).set({ priceListId: spare!.id }).where(eq(companies.id, company.id)),
    ],
    [
      "the company's list back",
      () => db.update(companies).set({ priceListId: list.id }).where(eq(companies.id, company.id)),
    ],
    ["a list removed", () => db.delete(priceLists).where(eq(priceLists.id, spare!.id))],
    [
      "a member removed",
      () => db.delete(companyMembers).where(eq(companyMembers.userId, buyer.id)),
    ],
    [
      "a member added",
      () =>
        db
          .insert(companyMembers)
          .values({ companyId: company.id, userId: buyer.id, role: "buyer" }),
    ],
    // Which group a buyer is in, and whether it keeps trade minimums (migration 0083).
    [
      "a group switched",
      () =>
        db
          .update(customerGroups)
          .set({ tradeMinimums: true })
          .where(eq(customerGroups.id, GARAGE_GROUP_ID)),
    ],
    [
      "a customer's own group",
      () => db.update(user).set({ customerGroupId: GARAGE_GROUP_ID }).where(eq(user.id, buyer.id)),
    ],
  ];
  try {
    await expect.poll(channel.listening, { timeout: 10_000 }).toBe(true);
    for (const [what, write] of writes) {
      const before = channel.heard("prices");
      await write();
      await expect.poll(() => channel.heard("prices"), { message: what }).toBe(before + 1);
    }
  } finally {
    await channel.stop();
  }
});
