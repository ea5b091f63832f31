import { sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpTrusted } from "../../../tests/support/accounts";
import { placeTestOrder } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { stockAtLocations } from "../../../tests/support/location-stock";
import { multipart } from "../../../tests/support/multipart";
import { refusal } from "../../../tests/support/refusal";
import { storeForTests } from "../../../tests/support/store";
import { supplyMessages, type SupplyCreate } from "../../contract/supply";
import { createSupplyService, type SupplyService } from "./supply";
import { importSupply } from "./supply-csv";

// Incoming supply (docs/inventory.md "Incoming supply"): entered, re-dated, received into a
// location's stock on sale, cancelled, imported from a CSV, and received while orders race it.

let supply: SupplyService;
let announced = 0;
const actor = { id: "supply-admin", email: "supply-admin@example.com" };

const { t, admin } = storeForTests({
  admin: "supply-admin@example.com",
  shipsToTestAddress: true,
  env: { AUTH_RATE_LIMIT_PER_IP: "1000" },
});
beforeAll(async () => {
  supply = createSupplyService(t.database.db, () => (announced += 1));
});

let n = 0;
/** A location serving Oregon (or none), active unless said; its id and code. */
async function location(name: string, active = true) {
  n += 1;
  const code = `S${n}-${process.pid % 1000}`;
  const rows = await t.database.db.execute<{ id: string }>(sql`
    insert into stock_locations (code, name, country, serves_countries, serves_regions,
                                 priority, active)
    values (${code}, ${name}, 'US', array['US'], array['OR'], 10, ${active})
    returning id`);
  return { id: rows.rows[0]!.id, code };
}

async function homeId(): Promise<string> {
  const rows = await t.database.db.execute<{ id: string }>(
    sql`select id from stock_locations where is_home`,
  );
  return rows.rows[0]!.id;
}

/** The product's total, and its stock on sale and allocated at each location it has any. */
async function stockOf(productId: string) {
  const [total] = (
    await t.database.db.execute<{ available_quantity: number }>(
      sql`select available_quantity from products where id = ${productId}`,
    )
  ).rows;
  return { total: total!.available_quantity, at: await stockAtLocations(t, productId) };
}

const run = (productId: string, locationId: string, over: Partial<SupplyCreate> = {}) =>
  supply.create(
    {
      kind: "production",
      reference: `RUN-${++n}`,
      productId,
      locationId,
      qty: 40,
      expectedOn: "2027-01-12",
      note: "",
      ...over,
    },
    actor,
  );

async function auditSummaries(id: string): Promise<string[]> {
  const rows = await t.database.db.execute<{ summary: string }>(
    sql`select summary from admin_audit_log where target_id = ${id} order by at, id`,
  );
  return rows.rows.map((r) => r.summary);
}

test("supply is entered, re-dated (the audit log says old → new) and listed open, soonest first", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 5 });
  const dock = await location("Supply dock A");
  const later = await run(p.id, dock.id, { expectedOn: "2027-03-01", kind: "purchase_order" });
  const sooner = await run(p.id, dock.id, { qty: 10 });
  expect(sooner).toMatchObject({
    kind: "production",
    partNumber: p.partNumber,
    locationCode: dock.code,
    qty: 10,
    received: 0,
    toCome: 10,
    expectedOn: "2027-01-12",
    status: "open",
  });
  const moved = await supply.update(later.id, { expectedOn: "2027-02-15" }, actor);
  expect(moved.expectedOn).toBe("2027-02-15");
  expect((await auditSummaries(later.id)).at(-1)).toContain("expected 1 Mar 2027 → 15 Feb 2027");

  const page = await supply.list({ status: "open", productId: p.id, limit: 24, offset: 0 });
  expect(page.total).toBe(2);
  expect(page.items.map((s) => s.id)).toEqual([sooner.id, later.id]);
  // The same run or PO brings a part once.
  const twice = await refusal(run(p.id, dock.id, { reference: sooner.reference }));
  expect(twice).toEqual({
    status: 409,
    message: supplyMessages.duplicate("production", sooner.reference, p.partNumber),
  });
  // Nothing moved: supply on its way is not stock.
  expect((await stockOf(p.id)).total).toBe(5);
});

test("receiving puts the units on sale at the supply's location and moves the total as much; all of it received closes the supply", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 20 });
  const dock = await location("Supply dock B");
  const s = await run(p.id, dock.id);
  const before = announced;

  const part = await supply.receive(s.id, 25, actor);
  expect(part).toMatchObject({ received: 25, toCome: 15, status: "open" });
  expect(await stockOf(p.id)).toEqual({
    total: 45,
    at: { "Main warehouse": [20, 0], "Supply dock B": [25, 0] },
  });
  expect(announced).toBe(before + 1);

  expect(await refusal(supply.receive(s.id, 16, actor))).toEqual({
    status: 422,
    message: supplyMessages.tooMany(15),
  });
  expect(await refusal(supply.update(s.id, { qty: 24 }, actor))).toEqual({
    status: 422,
    message: supplyMessages.belowReceived(25),
  });
  const all = await supply.receive(s.id, 15, actor);
  expect(all).toMatchObject({ received: 40, toCome: 0, status: "received" });
  const stock = await stockOf(p.id);
  expect(stock).toEqual({ total: 60, at: { "Main warehouse": [20, 0], "Supply dock B": [40, 0] } });
  // Σ on sale over the locations is the product's total.
  const onSale = Object.values(stock.at).reduce((sum, [u]) => sum + u!, 0);
  expect(onSale).toBe(stock.total);
  expect(await refusal(supply.receive(s.id, 1, actor))).toEqual({
    status: 409,
    message: supplyMessages.notOpen("received"),
  });
  expect(await refusal(supply.cancel(s.id, actor))).toEqual({
    status: 409,
    message: supplyMessages.notOpen("received"),
  });
  expect((await auditSummaries(s.id)).at(-1)).toContain("40 of 40 arrived, on sale at");
});

test("at the home location only the total moves; an inactive location receives nothing", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 3 });
  const s = await run(p.id, await homeId(), { qty: 7 });
  await supply.receive(s.id, 7, actor);
  expect(await stockOf(p.id)).toEqual({ total: 10, at: { "Main warehouse": [10, 0] } });

  const closed = await location("Closed dock", false);
  const waiting = await run(p.id, closed.id, { qty: 4 });
  expect(await refusal(supply.receive(waiting.id, 4, actor))).toEqual({
    status: 422,
    message: supplyMessages.inactiveLocation("Closed dock"),
  });
  expect((await stockOf(p.id)).total).toBe(10);
});

test("a receipt waiting while its location is deactivated reads it inactive and is refused", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 0 });
  const dock = await location("Closing dock");
  const s = await run(p.id, dock.id, { qty: 5 });
  const admin = await t.database.pool.connect();
  try {
    await admin.query("begin");
    await admin.query("update stock_locations set active = false where id = $1", [dock.id]);
    const receipt = refusal(supply.receive(s.id, 5, actor));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await admin.query("commit");
    expect(await receipt).toEqual({
      status: 422,
      message: supplyMessages.inactiveLocation("Closing dock"),
    });
  } finally {
    admin.release();
  }
  expect((await stockOf(p.id)).total).toBe(0);
});

test("cancelled supply is not coming: nothing more is received or changed, what arrived stays", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 0 });
  const dock = await location("Supply dock C");
  const s = await run(p.id, dock.id, { qty: 10 });
  await supply.receive(s.id, 4, actor);
  const cancelled = await supply.cancel(s.id, actor);
  expect(cancelled).toMatchObject({ status: "cancelled", received: 4, toCome: 0 });
  expect(await refusal(supply.receive(s.id, 1, actor))).toEqual({
    status: 409,
    message: supplyMessages.notOpen("cancelled"),
  });
  expect(await refusal(supply.update(s.id, { expectedOn: "2027-05-01" }, actor))).toMatchObject({
    status: 409,
  });
  expect(await stockOf(p.id)).toEqual({
    total: 4,
    at: { "Main warehouse": [0, 0], "Supply dock C": [4, 0] },
  });
  // A cancelled run's reference may be entered again.
  expect((await run(p.id, dock.id, { reference: s.reference })).status).toBe("open");
});

test("a CSV is all or nothing: every problem listed with its line; a file sent twice is refused", async () => {
  const p = await insertProduct(t.database.db);
  const dock = await location("Supply dock D");
  const header = "kind,reference,part_number,location_code,qty,expected_on";
  const count = async () =>
    (
      await t.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from incoming_supply where product_id = ${p.id}`,
      )
    ).rows[0]!.n;
  const bad = Buffer.from(
    [
      header,
      `production,R-1,${p.partNumber},${dock.code},40,2027-01-12`,
      `truck,R-2,${p.partNumber},${dock.code},0,2027-02-30`,
      `purchase_order,PO-9,NOPE-404,${dock.code},5,2027-01-20`,
      `purchase_order,PO-9,${p.partNumber.toLowerCase()},nowhere,5,2027-01-20`,
    ].join("\n"),
  );
  const refused = await importSupply(t.database.db, bad, actor);
  expect(refused.applied).toBe(false);
  expect(refused.errors).toEqual([
    { line: 3, column: "kind", message: `${supplyMessages.kind}: production or purchase_order` },
    { line: 3, column: "qty", message: supplyMessages.qtyPositive },
    { line: 3, column: "expected_on", message: supplyMessages.expectedOn },
    { line: 4, column: "part_number", message: "No part numbered NOPE-404" },
    { line: 5, column: "location_code", message: "No location with the code nowhere" },
  ]);
  expect(await count()).toBe(0);

  const good = Buffer.from(
    [
      header,
      `production,R-1,${p.partNumber},${dock.code},40,2027-01-12`,
      `purchase_order,PO-9,${p.partNumber.toLowerCase()},${dock.code.toLowerCase()},5,2027-01-20`,
    ].join("\r\n"),
  );
  expect(await importSupply(t.database.db, good, actor)).toEqual({
    applied: true,
    rows: 2,
    errors: [],
  });
  expect(await count()).toBe(2);
  const again = await importSupply(t.database.db, good, actor);
  expect(again.applied).toBe(false);
  expect(again.errors.map((e) => e.line)).toEqual([2, 3]);
  expect(again.errors[0]!.message).toBe(
    supplyMessages.duplicate("production", "R-1", p.partNumber),
  );
  expect(await count()).toBe(2);
  const header2 = await importSupply(t.database.db, Buffer.from("kind,reference,qty\n"), actor);
  expect(header2.errors.map((e) => e.message)).toEqual([
    "Missing column part_number",
    "Missing column location_code",
    "Missing column expected_on",
  ]);
});

test("the routes: admins only, bad input answered 400 (never 500), a CSV through multipart", async () => {
  const p = await insertProduct(t.database.db);
  const dock = await location("Supply dock E");
  const as = { cookie: admin.cookie };
  const post = (url: string, payload: object) =>
    t.app.inject({ method: "POST", url, headers: as, payload });
  const body = {
    kind: "production",
    reference: "RUN-API",
    productId: p.id,
    locationId: dock.id,
    qty: 12,
    expectedOn: "2027-01-12",
  };
  expect(
    (await post("/api/incoming-supply", { ...body, expectedOn: "2027-02-30" })).statusCode,
  ).toBe(400);
  expect(
    (await post("/api/incoming-supply", { ...body, expectedOn: "0000-01-01" })).statusCode,
  ).toBe(400);
  expect((await post("/api/incoming-supply", { ...body, qty: 0 })).statusCode).toBe(400);
  expect((await post("/api/incoming-supply", { ...body, reference: "  " })).statusCode).toBe(400);
  expect(
    (await post("/api/incoming-supply", { ...body, productId: crypto.randomUUID() })).statusCode,
  ).toBe(404);
  const created = await post("/api/incoming-supply", body);
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await post(`/api/incoming-supply/${id}/receive`, { qty: -1 })).statusCode).toBe(400);
  expect((await post(`/api/incoming-supply/nope/receive`, { qty: 1 })).statusCode).toBe(400);
  expect(
    (await post(`/api/incoming-supply/${crypto.randomUUID()}/receive`, { qty: 1 })).statusCode,
  ).toBe(404);
  const received = await post(`/api/incoming-supply/${id}/receive`, { qty: 2 });
  expect(received.statusCode, received.body).toBe(200);
  expect(received.json()).toMatchObject({ received: 2, toCome: 10 });

  const list = await t.app.inject({
    url: `/api/incoming-supply?status=open&locationId=${dock.id}`,
    headers: as,
  });
  expect(list.statusCode).toBe(200);
  expect(list.headers["x-total-count"]).toBe("1");
  expect(
    (await t.app.inject({ url: "/api/incoming-supply?status=lost", headers: as })).statusCode,
  ).toBe(400);

  const file = multipart({
    data: Buffer.from(
      `kind,reference,part_number,location_code,qty,expected_on\npurchase_order,PO-API,${p.partNumber},${dock.code},3,2027-04-01\n`,
    ),
    filename: "supply.csv",
    type: "text/csv",
    field: "file",
  });
  const imported = await t.app.inject({
    method: "POST",
    url: "/api/incoming-supply/import",
    headers: { ...as, ...file.headers },
    payload: file.payload,
  });
  expect(imported.statusCode, imported.body).toBe(200);
  expect(imported.json()).toEqual({ applied: true, rows: 1, errors: [] });
});

test("receipts racing orders for the same product: on sale + allocated = the stock at the start + what was received, never below zero", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 30, minimumOrder: 5 });
  const dock = await location("Supply dock F");
  // 10 of the 30 on sale at the dock (it serves Oregon, where the test orders go), 20 at home.
  await t.database.db.execute(sql`
    insert into location_stock (product_id, location_id, available) values (${p.id}, ${dock.id}, 10)`);
  const runs = await Promise.all([
    run(p.id, dock.id, { qty: 20 }),
    run(p.id, await homeId(), { qty: 20 }),
  ]);
  const customers = await Promise.all(Array.from({ length: 10 }, () => signUpTrusted(t)));

  // Ten orders of 5 race four receipts of 10 (two at the dock, two at home).
  const answers = await Promise.all([
    ...customers.map((c) => placeTestOrder(t.app, c, p.id, 5)),
    ...runs.flatMap((r) => [supply.receive(r.id, 10, actor), supply.receive(r.id, 10, actor)]),
  ]);
  const placed = answers
    .slice(0, 10)
    .filter((r) => (r as { statusCode: number }).statusCode === 201).length;
  expect(placed).toBeGreaterThanOrEqual(6);

  const stock = await stockOf(p.id);
  const rows = Object.values(stock.at);
  expect(rows.every(([onSale]) => onSale! >= 0)).toBe(true);
  const onSale = rows.reduce((sum, [u]) => sum + u!, 0);
  const allocated = rows.reduce((sum, [, a]) => sum + a!, 0);
  expect(allocated).toBe(placed * 5);
  expect(onSale + allocated).toBe(30 + 40);
  expect(onSale).toBe(stock.total);
  const closed = await supply.list({ status: "received", productId: p.id, limit: 24, offset: 0 });
  expect(closed.total).toBe(2);
});
