import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertBareOrder, insertProduct } from "../../../tests/support/factories";
import { refusal } from "../../../tests/support/refusal";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { locationMessages, type ProductStock } from "../../contract/locations";
import { adminAuditLog } from "../audit/tables";
import { HttpError } from "../errors";
import { createLocationService, type LocationService } from "./locations";
import { createInventory } from "./service";

// The admin's side of locations (docs/inventory.md "Locations (admin)", "Counts and transfers"),
// against a real database.

let database: TestDatabase;
let locations: LocationService;
let announced = 0;
const admin = { id: "loc-admin", email: "loc-admin@example.com" };

beforeAll(async () => {
  database = await createTestDatabase();
  locations = createLocationService(database.db, () => (announced += 1));
});
afterAll(() => database.close());

let n = 0;
/** A new active location serving `country` (and `regions`), with a fresh code. */
async function addLocation(name: string, country = "US", regions: string[] = []) {
  n += 1;
  return locations.create(
    {
      code: `T${n}-${process.pid % 10000}`,
      name,
      line1: "",
      city: "Chicago",
      region: "IL",
      postalCode: "",
      country: "US",
      servesCountries: [country],
      servesRegions: regions,
      priority: 50,
      dispatchDays: 1,
      cutoffHour: null,
      active: true,
    },
    admin,
  );
}

const home = async () => (await locations.list()).find((l) => l.isHome)!;

/** Each location's numbers, by code, for the product. */
const byCode = (stock: ProductStock) =>
  Object.fromEntries(
    stock.locations.map((l) => [
      l.code,
      { onSale: l.onSale, allocated: l.allocated, onHand: l.onHand, low: l.low },
    ]),
  );

/** The invariant: nothing below zero anywhere, and the sum on sale is the product's total. */
async function expectConsistent(productId: string) {
  const stock = await locations.stock(productId);
  for (const l of stock.locations) expect(l.onSale, l.code).toBeGreaterThanOrEqual(0);
  expect(stock.locations.reduce((s, l) => s + l.onSale, 0)).toBe(stock.availableQuantity);
  return stock;
}

describe("locations", () => {
  test("the home location is listed first; a new one is added after it, its code unique in any case", async () => {
    const chi = await addLocation("Chicago warehouse", "US", ["IL"]);
    const list = await locations.list();
    expect(list[0]).toMatchObject({ code: "MAIN", name: "Main warehouse", isHome: true });
    expect(list.find((l) => l.id === chi.id)).toMatchObject({
      name: "Chicago warehouse",
      servesCountries: ["US"],
      servesRegions: ["IL"],
      isHome: false,
      active: true,
    });
    const again = await refusal(
      locations.create({ ...chi, code: chi.code.toLowerCase(), name: "Copy" }, admin),
    );
    expect(again).toEqual({
      status: 409,
      message: locationMessages.codeTaken(chi.code.toLowerCase()),
    });
    const audit = await database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, chi.id));
    expect(audit.map((a) => a.action)).toEqual(["location.create"]);
  });

  test("an update changes only what it sends; the home location cannot be deactivated", async () => {
    const loc = await addLocation("Reno warehouse");
    const changed = await locations.update(loc.id, { name: "Reno DC", priority: 7 }, admin);
    expect(changed).toMatchObject({
      name: "Reno DC",
      priority: 7,
      code: loc.code,
      city: "Chicago",
    });
    // The same values again (the edit dialog sends every field) change nothing and log nothing.
    await locations.update(loc.id, { ...changed }, admin);
    const audit = await database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, loc.id));
    expect(audit.map((a) => [a.action, a.summary])).toEqual([
      ["location.create", `Added the location ${loc.code} (Reno warehouse)`],
      ["location.update", `Changed the location ${loc.code} (Reno DC): name, priority`],
    ]);
    const h = await home();
    expect(await refusal(locations.update(h.id, { active: false }, admin))).toEqual({
      status: 422,
      message: locationMessages.homeAlwaysActive,
    });
    expect(await locations.update(loc.id, { active: false }, admin)).toMatchObject({
      active: false,
    });
    expect(
      await refusal(locations.update("00000000-0000-4000-8000-000000000000", {}, admin)),
    ).toEqual({ status: 404, message: locationMessages.notFound });
  });

  test("a location with units allocated to orders cannot be deactivated", async () => {
    const loc = await addLocation("Allocating warehouse", "DE");
    const p = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 1 });
    await locations.count(loc.id, p.id, { onHand: 4, reorderLevel: null }, admin);
    const order = await insertBareOrder(database.db, { country: "DE", region: "" });
    await createInventory(database.db).transaction((stock) =>
      stock.reserve([{ productId: p.id, qty: 3 }], order),
    );
    expect(byCode(await locations.stock(p.id))[loc.code]).toEqual({
      onSale: 1,
      allocated: 3,
      onHand: 4,
      low: false,
    });
    expect(await refusal(locations.update(loc.id, { active: false }, admin))).toEqual({
      status: 422,
      message: locationMessages.hasAllocations(3),
    });
    expect((await locations.list()).find((l) => l.id === loc.id)?.active).toBe(true);
  });

  test("a location with stock on sale cannot be deactivated (no order could take it), and an inactive one takes no stock in", async () => {
    const loc = await addLocation("Emptied warehouse");
    const home = (await locations.list()).find((l) => l.isHome)!;
    const p = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 1 });
    await locations.count(loc.id, p.id, { onHand: 4, reorderLevel: null }, admin);
    expect(await refusal(locations.update(loc.id, { active: false }, admin))).toEqual({
      status: 422,
      message: locationMessages.hasStock(4),
    });
    await locations.transfer(
      { productId: p.id, fromLocationId: loc.id, toLocationId: home.id, qty: 4 },
      admin,
    );
    expect((await locations.update(loc.id, { active: false }, admin)).active).toBe(false);
    const inactive = { status: 422, message: locationMessages.inactive("Emptied warehouse") };
    expect(
      await refusal(locations.count(loc.id, p.id, { onHand: 1, reorderLevel: null }, admin)),
    ).toEqual(inactive);
    expect(
      await refusal(
        locations.transfer(
          { productId: p.id, fromLocationId: home.id, toLocationId: loc.id, qty: 1 },
          admin,
        ),
      ),
    ).toEqual(inactive);
  });
});

describe("counts", () => {
  test("counting at a location sets its stock on sale and moves the product's total by as much", async () => {
    const loc = await addLocation("Counted warehouse");
    const p = await insertProduct(database.db, { availableQuantity: 20 });
    const before = announced;
    const stock = await locations.count(loc.id, p.id, { onHand: 30, reorderLevel: 5 }, admin);
    expect(announced).toBe(before + 1);
    expect(stock.availableQuantity).toBe(50);
    expect(byCode(stock)).toMatchObject({
      MAIN: { onSale: 20, allocated: 0, onHand: 20 },
      [loc.code]: { onSale: 30, allocated: 0, onHand: 30, low: false },
    });
    expect(stock.locations.find((l) => l.code === loc.code)?.reorderLevel).toBe(5);

    // Counting fewer lowers both; stock on sale at its reorder level is not low, below it is.
    const at = await locations.count(loc.id, p.id, { onHand: 5, reorderLevel: 5 }, admin);
    expect(byCode(at)[loc.code]).toMatchObject({ onSale: 5, low: false });
    const lower = await locations.count(loc.id, p.id, { onHand: 5, reorderLevel: 6 }, admin);
    expect(lower.availableQuantity).toBe(25);
    expect(byCode(lower)[loc.code]).toMatchObject({ onSale: 5, low: true });
    // A null reorder level removes it.
    const none = await locations.count(loc.id, p.id, { onHand: 5, reorderLevel: null }, admin);
    expect(none.locations.find((l) => l.code === loc.code)).toMatchObject({
      reorderLevel: null,
      low: false,
    });
    await expectConsistent(p.id);
  });

  test("counting at the home location moves only the product's total", async () => {
    const loc = await addLocation("Beside home");
    const p = await insertProduct(database.db, { availableQuantity: 10 });
    await locations.count(loc.id, p.id, { onHand: 4, reorderLevel: null }, admin);
    const h = await home();
    const stock = await locations.count(h.id, p.id, { onHand: 2, reorderLevel: 3 }, admin);
    expect(stock.availableQuantity).toBe(6);
    expect(byCode(stock)).toMatchObject({
      MAIN: { onSale: 2, onHand: 2, low: true },
      [loc.code]: { onSale: 4 },
    });
    await expectConsistent(p.id);
  });

  test("a count below the units allocated there is refused, and nothing is written", async () => {
    const p = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 1 });
    const order = await insertBareOrder(database.db);
    await createInventory(database.db).transaction((stock) =>
      stock.reserve([{ productId: p.id, qty: 6 }], order),
    );
    const h = await home();
    expect(
      await refusal(locations.count(h.id, p.id, { onHand: 5, reorderLevel: 1 }, admin)),
    ).toEqual({ status: 422, message: locationMessages.belowAllocated(6) });
    const stock = await locations.stock(p.id);
    expect(byCode(stock).MAIN).toEqual({ onSale: 4, allocated: 6, onHand: 10, low: false });
    expect(stock.locations[0]!.reorderLevel).toBeNull();
    // Exactly the allocated units on hand: none on sale.
    const counted = await locations.count(h.id, p.id, { onHand: 6, reorderLevel: null }, admin);
    expect(byCode(counted).MAIN).toMatchObject({ onSale: 0, allocated: 6, onHand: 6 });
    expect(counted.availableQuantity).toBe(0);
  });

  test("a missing product or location is 404", async () => {
    const p = await insertProduct(database.db);
    const h = await home();
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(
      await refusal(locations.count(h.id, missing, { onHand: 1, reorderLevel: null }, admin)),
    ).toEqual({ status: 404, message: locationMessages.productNotFound });
    expect(
      await refusal(locations.count(missing, p.id, { onHand: 1, reorderLevel: null }, admin)),
    ).toEqual({ status: 404, message: locationMessages.notFound });
    expect(await refusal(locations.stock(missing))).toEqual({
      status: 404,
      message: locationMessages.productNotFound,
    });
  });
});

describe("transfers", () => {
  test("a transfer moves units on sale between locations; the total stays; it is kept and audited", async () => {
    const loc = await addLocation("Transfer warehouse");
    const p = await insertProduct(database.db, { availableQuantity: 10 });
    const h = await home();
    const before = announced;
    const out = await locations.transfer(
      { productId: p.id, fromLocationId: h.id, toLocationId: loc.id, qty: 7 },
      admin,
    );
    expect(out).toMatchObject({ fromCode: "MAIN", toCode: loc.code, qty: 7 });
    expect(announced).toBe(before);
    expect(byCode(await expectConsistent(p.id))).toMatchObject({
      MAIN: { onSale: 3 },
      [loc.code]: { onSale: 7 },
    });
    await locations.transfer(
      { productId: p.id, fromLocationId: loc.id, toLocationId: h.id, qty: 5 },
      admin,
    );
    const stock = await expectConsistent(p.id);
    expect(stock.availableQuantity).toBe(10);
    expect(byCode(stock)).toMatchObject({ MAIN: { onSale: 8 }, [loc.code]: { onSale: 2 } });

    const history = await locations.transfers({ productId: p.id, limit: 10 });
    expect(history.map((t) => [t.fromCode, t.toCode, t.qty, t.adminEmail])).toEqual([
      [loc.code, "MAIN", 5, admin.email],
      ["MAIN", loc.code, 7, admin.email],
    ]);
    const audit = await database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, p.id));
    expect(audit.filter((a) => a.action === "stock.transfer")).toHaveLength(2);
  });

  test("more than is on sale at the source, or one location to itself, is refused", async () => {
    const loc = await addLocation("Short warehouse");
    const p = await insertProduct(database.db, { availableQuantity: 10 });
    const h = await home();
    await locations.count(loc.id, p.id, { onHand: 3, reorderLevel: null }, admin);
    expect(
      await refusal(
        locations.transfer(
          { productId: p.id, fromLocationId: loc.id, toLocationId: h.id, qty: 4 },
          admin,
        ),
      ),
    ).toEqual({ status: 422, message: locationMessages.notEnoughOnSale(3, loc.code) });
    expect(
      await refusal(
        locations.transfer(
          { productId: p.id, fromLocationId: h.id, toLocationId: loc.id, qty: 11 },
          admin,
        ),
      ),
    ).toEqual({ status: 422, message: locationMessages.notEnoughOnSale(10, "MAIN") });
    expect(
      await refusal(
        locations.transfer(
          { productId: p.id, fromLocationId: h.id, toLocationId: h.id, qty: 1 },
          admin,
        ),
      ),
    ).toEqual({ status: 422, message: locationMessages.sameLocation });
    expect(byCode(await expectConsistent(p.id))).toMatchObject({
      MAIN: { onSale: 10 },
      [loc.code]: { onSale: 3 },
    });
    expect(await locations.transfers({ productId: p.id, limit: 10 })).toEqual([]);
  });

  test("transfers and counts racing on one product leave nothing below zero and the sums right", async () => {
    const a = await addLocation("Race A");
    const b = await addLocation("Race B");
    const h = await home();
    const p = await insertProduct(database.db, { availableQuantity: 30, minimumOrder: 1 });
    await locations.count(a.id, p.id, { onHand: 10, reorderLevel: null }, admin);
    const ids = [h.id, a.id, b.id];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      const from = ids[i % 3]!;
      const to = ids[(i + 1 + (i % 2)) % 3]!;
      work.push(
        i % 5 === 0
          ? locations.count(ids[i % 3]!, p.id, { onHand: i % 7, reorderLevel: null }, admin)
          : locations.transfer(
              { productId: p.id, fromLocationId: from, toLocationId: to, qty: 1 + (i % 4) },
              admin,
            ),
      );
    }
    const results = await Promise.allSettled(work);
    for (const r of results) {
      if (r.status === "rejected") {
        // Only the rule's refusals: never a constraint or a deadlock.
        expect(r.reason).toBeInstanceOf(HttpError);
        expect((r.reason as HttpError).statusCode).toBe(422);
      }
    }
    expect(results.some((r) => r.status === "fulfilled")).toBe(true);
    await expectConsistent(p.id);
    const negative = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from location_stock where available < 0`,
    );
    expect(negative.rows[0]!.n).toBe(0);
  });
});
