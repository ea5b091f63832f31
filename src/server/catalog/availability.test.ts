import { sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpTrusted, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { requestsAs } from "../../../tests/support/requests";
import type { ProductDetail, ProductListItem } from "../../contract/products";
import type { PartPage } from "../../contract/parts";
import type { QuickOrderResult } from "../../contract/quick-order";
import { partSlug } from "../../contract/paths";

// Honest availability (docs/inventory.md "What buyers see"): the catalog's list, detail and part
// page answers and quick order's lines carry where a part is on sale and its backorder offer, and
// the read cache forgets them when a policy, supply or a location's stock changes.

let buyer: TestAccount;
let home: string;
let chicago: string;
const code = `CHI${process.pid % 1000}`;

const { t, admin } = storeForTests({
  admin: "avail-admin@example.com",
  env: { AUTH_RATE_LIMIT_PER_IP: "1000" },
});
beforeAll(async () => {
  buyer = await signUpTrusted(t);
  home = (
    await t.database.db.execute<{ id: string }>(sql`select id from stock_locations where is_home`)
  ).rows[0]!.id;
  const res = await as(admin, "POST", "/api/locations", {
    code,
    name: "Chicago warehouse",
    city: "Chicago",
    country: "US",
  });
  expect(res.statusCode).toBe(201);
  chicago = res.json<{ id: string }>().id;
});

const as = requestsAs(() => t.app);

async function ok<T>(
  res: Promise<{ statusCode: number; json<U>(): U; body: string }>,
  status = 200,
) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json<T>();
}

const policy = (productId: string, leadDays: number | null) =>
  ok(as(admin, "PUT", `/api/locations/stock/${productId}/backorders`, { takes: true, leadDays }));

/** Incoming supply the admin enters: `qty` of a product at a location, expected on a day. */
const incoming = (
  kind: "production" | "purchase_order",
  reference: string,
  productId: string,
  locationId: string,
  qty: number,
  expectedOn: string,
) =>
  ok(
    as(admin, "POST", "/api/incoming-supply", {
      kind,
      reference,
      productId,
      locationId,
      qty,
      expectedOn,
    }),
    201,
  );

const detail = (id: string) => ok<ProductDetail>(as(null, "GET", `/api/products/${id}`));

const today = async (plusDays: number) =>
  (
    await t.database.db.execute<{ d: string }>(
      sql`select (current_date + ${plusDays}::int)::text as d`,
    )
  ).rows[0]!.d;

test("stock at two locations with open supply: where it ships from, and the units coming by their date", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 8, name: "Oil filter A" });
  // 12 counted at Chicago (the total grows to 20; the home location keeps 8).
  await ok(
    as(admin, "PUT", `/api/locations/${chicago}/stock/${p.id}`, { onHand: 12, reorderLevel: null }),
  );
  await incoming("production", `RUN-A-${process.pid}`, p.id, home, 30, "2027-01-12");
  await incoming("purchase_order", `PO-A-${process.pid}`, p.id, chicago, 50, "2027-02-20");
  await policy(p.id, null);
  const wanted = {
    availableQuantity: 20,
    stockByLocation: [
      { code: "MAIN", name: "Main warehouse", city: "", onSale: 8 },
      { code, name: "Chicago warehouse", city: "Chicago", onSale: 12 },
    ],
    // One more unit comes with the first run; the 30 of it are not promised to anyone yet.
    backorder: { available: true, expectedOn: "2027-01-12", more: 30 },
  };
  await expect.poll(() => detail(p.id)).toMatchObject(wanted);
  const list = await ok<ProductListItem[]>(as(null, "GET", `/api/products?q=${p.partNumber}`));
  expect(list).toHaveLength(1);
  // The list carries the backorder offer; where it is on sale is the product's own answer.
  expect(list[0]).toMatchObject({ availableQuantity: 20, backorder: wanted.backorder });
  expect(list[0]).not.toHaveProperty("stockByLocation");
  // The public part page: whether a date can be promised, never how many nor where.
  const part = await ok<PartPage>(as(null, "GET", `/api/parts/${partSlug(p.partNumber, p.name)}`));
  expect(part.inStock).toBe(true);
  expect(part.backorder).toEqual({ available: true, expectedOn: "2027-01-12" });
  expect(part).not.toHaveProperty("stockByLocation");
  // Quick order's line says the same.
  const quick = await ok<QuickOrderResult>(
    as(buyer, "POST", "/api/quick-order/resolve", { lines: [{ number: p.partNumber, qty: 2 }] }),
  );
  expect(quick.lines[0]!.product).toMatchObject(wanted);
});

test("a product taking backorders with a lead time: any number, on the lead time's date", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 0, minimumOrder: 1 });
  const before = await detail(p.id);
  expect(before.backorder).toBeNull();
  expect(before.stockByLocation).toEqual([]);
  // The cached answer is forgotten once the policy changes (the 0075 triggers' NOTIFY).
  await policy(p.id, 10);
  const on = await today(10);
  await expect
    .poll(async () => (await detail(p.id)).backorder)
    .toEqual({ available: true, expectedOn: on, more: null });
  const part = await ok<PartPage>(as(null, "GET", `/api/parts/${partSlug(p.partNumber, p.name)}`));
  expect(part).toMatchObject({ inStock: false, backorder: { available: true, expectedOn: on } });
});

test("a product that takes no backorders, and one with nothing coming and no lead time", async () => {
  const none = await insertProduct(t.database.db, { availableQuantity: 0, minimumOrder: 1 });
  expect(await detail(none.id)).toMatchObject({ stockByLocation: [], backorder: null });
  const quick = await ok<QuickOrderResult>(
    as(buyer, "POST", "/api/quick-order/resolve", { lines: [{ number: none.partNumber, qty: 1 }] }),
  );
  expect(quick.lines[0]!.product).toMatchObject({ stockByLocation: [], backorder: null });

  const dry = await insertProduct(t.database.db, { availableQuantity: 0, minimumOrder: 1 });
  await policy(dry.id, null);
  await expect
    .poll(async () => (await detail(dry.id)).backorder)
    .toEqual({ available: false, expectedOn: null, more: null });
});

test("a transfer between locations (the total unchanged) is shown at once where it is on sale", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 10 });
  expect((await detail(p.id)).stockByLocation).toEqual([
    { code: "MAIN", name: "Main warehouse", city: "", onSale: 10 },
  ]);
  await ok(
    as(admin, "POST", "/api/locations/transfers", {
      productId: p.id,
      fromLocationId: home,
      toLocationId: chicago,
      qty: 4,
    }),
    201,
  );
  await expect
    .poll(async () => (await detail(p.id)).stockByLocation)
    .toEqual([
      { code: "MAIN", name: "Main warehouse", city: "", onSale: 6 },
      { code, name: "Chicago warehouse", city: "Chicago", onSale: 4 },
    ]);
});
