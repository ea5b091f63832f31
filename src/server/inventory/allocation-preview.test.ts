import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUpTrusted } from "../../../tests/support/accounts";
import { backorderStoreForTests } from "../../../tests/support/backorders";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { previewAllocation, type PreviewLine } from "./allocation-preview";

// The allocation preview (docs/inventory.md "Allocation preview") against `allocate_stock`: each
// scenario previews an order, then places it for real through the checkout, and the locations
// (and backordered units with their dates) the two named must be the same.

const { t, admin, h } = backorderStoreForTests("preview-admin@example.com");

let n = 0;
/** A location as the Locations page writes it; `serves` like `US/OR` or `US`. */
async function location(name: string, serves: string | null, priority = 100): Promise<string> {
  n += 1;
  const [country, region] = serves?.split("/") ?? [];
  const res = await h.as(admin, "POST", "/api/locations", {
    code: `P${n}-${process.pid % 1000}`,
    name,
    country: "US",
    servesCountries: country ? [country] : [],
    servesRegions: region ? [region] : [],
    priority,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Moves `qty` of the product's stock from the home location to another (a transfer). */
async function onSaleAt(productId: string, locationId: string, qty: number): Promise<void> {
  const res = await h.as(admin, "POST", "/api/locations/transfers", {
    productId,
    fromLocationId: await h.homeLocation(),
    toLocationId: locationId,
    qty,
  });
  expect(res.statusCode, res.body).toBe(201);
}

type Placement = { productId: string; locationId: string; qty: number }[];
const sorted = (p: Placement) =>
  [...p].sort((a, b) =>
    `${a.productId}${a.locationId}`.localeCompare(`${b.productId}${b.locationId}`),
  );

/** The preview named these allocations (in any order), and the placement made the same. */
function expectAllocated(r: { previewed: Placement; actual: Placement }, expected: Placement) {
  expect(r.previewed).toEqual(sorted(expected));
  expect(r.actual).toEqual(r.previewed);
}

/**
 * Previews the lines going to the test address, then places them (the cart, the checkout);
 * answers both placements and both sets of backorders, for the test to compare.
 */
async function previewThenPlace(lines: PreviewLine[], fulfilment?: "available") {
  const preview = await previewAllocation(t.database.db, lines, {
    country: TEST_SHIP_TO.country,
    region: TEST_SHIP_TO.region,
  });
  const customer = await signUpTrusted(t);
  for (const l of lines) await h.inCart(customer, l.productId, l.qty);
  const placed = await h.checkout(customer, fulfilment);
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json<{ order: { _id: string } }>().order._id;
  const allocated = await t.database.db.execute<{
    product_id: string;
    location_id: string;
    qty: number;
  }>(sql`select product_id, location_id, qty from stock_allocations where order_id = ${orderId}`);
  const waiting = await t.database.db.execute<{
    product_id: string;
    qty: number;
    promised_on: string | null;
  }>(sql`select product_id, qty, promised_on::text from backorders where order_id = ${orderId}`);
  return {
    preview,
    previewed: sorted(
      preview.lines.flatMap((l) =>
        l.at.map((a) => ({ productId: l.productId, locationId: a.locationId, qty: a.qty })),
      ),
    ),
    actual: sorted(
      allocated.rows.map((r) => ({
        productId: r.product_id,
        locationId: r.location_id,
        qty: r.qty,
      })),
    ),
    previewedBackorders: preview.lines
      .filter((l) => l.backordered > 0)
      .map((l) => ({ productId: l.productId, qty: l.backordered, promisedOn: l.promisedOn })),
    actualBackorders: waiting.rows.map((r) => ({
      productId: r.product_id,
      qty: r.qty,
      promisedOn: r.promised_on,
    })),
  };
}

test("one location: the preview names the home location, as the placement allocates there", async () => {
  const home = await h.homeLocation();
  const p = await insertProduct(t.database.db, { availableQuantity: 10, minimumOrder: 1 });
  const r = await previewThenPlace([{ productId: p.id, qty: 4 }]);
  expectAllocated(r, [{ productId: p.id, locationId: home, qty: 4 }]);
  expect(r.preview.origins).toMatchObject([{ locationId: home, units: 4, dispatchDays: 1 }]);
});

test("split lines: the location serving the destination first, the rest from the next, as placed", async () => {
  const home = await h.homeLocation();
  const portland = await location("Portland depot", "US/OR");
  const dallas = await location("Dallas depot", "US/TX", 1);
  const pads = await insertProduct(t.database.db, { availableQuantity: 30, minimumOrder: 1 });
  const discs = await insertProduct(t.database.db, { availableQuantity: 20, minimumOrder: 1 });
  await onSaleAt(pads.id, portland, 3);
  await onSaleAt(pads.id, dallas, 10);
  await onSaleAt(discs.id, dallas, 6);
  // Pads: Portland's 3 (it serves Oregon), then Dallas (priority 1) before home; discs: Dallas.
  const r = await previewThenPlace([
    { productId: pads.id, qty: 8 },
    { productId: discs.id, qty: 2 },
  ]);
  expectAllocated(r, [
    { productId: pads.id, locationId: portland, qty: 3 },
    { productId: pads.id, locationId: dallas, qty: 5 },
    { productId: discs.id, locationId: dallas, qty: 2 },
  ]);
  expect(r.preview.origins.map((o) => [o.name, o.units])).toEqual([
    ["Portland depot", 3],
    ["Dallas depot", 7],
  ]);
  // Dallas has 5 pads left: a line larger than it takes home's too.
  const again = await previewThenPlace([{ productId: pads.id, qty: 7 }]);
  expectAllocated(again, [
    { productId: pads.id, locationId: dallas, qty: 5 },
    { productId: pads.id, locationId: home, qty: 2 },
  ]);
});

test("the one-location policy: the preview names the one location with all of it, or splits when none has", async () => {
  const portland = await location("Portland hub", "US/OR");
  const chicago = await location("Chicago hub", null, 50);
  const pads = await insertProduct(t.database.db, { availableQuantity: 12, minimumOrder: 1 });
  const discs = await insertProduct(t.database.db, { availableQuantity: 30, minimumOrder: 1 });
  await onSaleAt(pads.id, portland, 5);
  await onSaleAt(pads.id, chicago, 5);
  await onSaleAt(discs.id, chicago, 5);
  const policy = (wholeOrder: boolean) =>
    h.as(admin, "PUT", "/api/locations/allocation-policy", { wholeOrder });
  const order = [
    { productId: pads.id, qty: 2 },
    { productId: discs.id, qty: 2 },
  ];
  try {
    expect((await policy(true)).statusCode).toBe(200);
    // Chicago has both lines in full (Portland has no discs): all from Chicago.
    const whole = await previewThenPlace(order);
    expectAllocated(whole, [
      { productId: pads.id, locationId: chicago, qty: 2 },
      { productId: discs.id, locationId: chicago, qty: 2 },
    ]);
    // Chicago is short of discs after two more: home has all of it.
    const home = await h.homeLocation();
    await previewThenPlace([{ productId: discs.id, qty: 2 }]);
    const fromHome = await previewThenPlace(order);
    expectAllocated(fromHome, [
      { productId: pads.id, locationId: home, qty: 2 },
      { productId: discs.id, locationId: home, qty: 2 },
    ]);
    // Nobody has 9 pads and 2 discs: each line from the nearest, split when short.
    const split = await previewThenPlace([
      { productId: pads.id, qty: 6 },
      { productId: discs.id, qty: 2 },
    ]);
    expect(split.previewed.length).toBeGreaterThan(2);
    expect(split.actual).toEqual(split.previewed);
  } finally {
    expect((await policy(false)).statusCode).toBe(200);
  }
});

test("a backorder: the units beyond the shelf and their promised date, as the placement put them", async () => {
  const seattle = await location("Seattle depot", "US/OR");
  const p = await insertProduct(t.database.db, { availableQuantity: 5, minimumOrder: 1 });
  await onSaleAt(p.id, seattle, 3);
  await h.takesBackorders(p.id);
  await h.supply(p.id, seattle, 20, "2027-01-12", `RUN-PREVIEW-${process.pid}`);
  const r = await previewThenPlace([{ productId: p.id, qty: 9 }], "available");
  expectAllocated(r, [
    { productId: p.id, locationId: seattle, qty: 3 },
    { productId: p.id, locationId: await h.homeLocation(), qty: 2 },
  ]);
  expect(r.previewedBackorders).toEqual([{ productId: p.id, qty: 4, promisedOn: "2027-01-12" }]);
  expect(r.actualBackorders).toEqual(r.previewedBackorders);
});

test("the preview writes nothing, and an inactive location is never named", async () => {
  const idle = await location("Idle depot", "US/OR", 0);
  const p = await insertProduct(t.database.db, { availableQuantity: 6, minimumOrder: 1 });
  await onSaleAt(p.id, idle, 2);
  const before = await h.available(p.id);
  const first = await previewAllocation(t.database.db, [{ productId: p.id, qty: 3 }], {
    country: "US",
    region: "OR",
  });
  expect(first.lines[0]!.at[0]).toEqual({ locationId: idle, qty: 2 });
  expect(await h.available(p.id)).toBe(before);
  const none = await t.database.db.execute(
    sql`select 1 from stock_allocations where product_id = ${p.id}`,
  );
  expect(none.rows).toEqual([]);
  // Emptied and deactivated, it is not named.
  const back = await h.as(admin, "POST", "/api/locations/transfers", {
    productId: p.id,
    fromLocationId: idle,
    toLocationId: await h.homeLocation(),
    qty: 2,
  });
  expect(back.statusCode, back.body).toBe(201);
  const off = await h.as(admin, "PATCH", `/api/locations/${idle}`, { active: false });
  expect(off.statusCode, off.body).toBe(200);
  const after = await previewAllocation(t.database.db, [{ productId: p.id, qty: 3 }], {
    country: "US",
    region: "OR",
  });
  expect(after.origins.map((o) => o.name)).toEqual(["Main warehouse"]);
});
