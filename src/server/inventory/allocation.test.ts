import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUpTrusted } from "../../../tests/support/accounts";
import { placeTestOrder } from "../../../tests/support/destination";
import { backorderHelpers } from "../../../tests/support/backorders";
import { insertProduct } from "../../../tests/support/factories";
import { stockAtLocations } from "../../../tests/support/location-stock";
import { payWithTestCard } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { orderMessages } from "../../contract/orders";
import { productFieldMessages } from "../../contract/products";
import { shipmentMessages } from "../../contract/shipments";

// Stock by location (docs/inventory.md "Allocation"), through the API: where an order's units are
// allocated, where they go back, where they ship from, and the sums under concurrent orders.

const { t, call, admin } = storeForTests({
  admin: "stock-admin@example.com",
  shipsToTestAddress: true,
  env: { AUTH_RATE_LIMIT_PER_IP: "1000" },
});

let n = 0;
/** A location, as the admin's Locations page writes it; `serves` like `US/OR` or `US`. */
async function location(name: string, serves: string | null, priority = 100): Promise<string> {
  n += 1;
  const [country, region] = serves?.split("/") ?? [];
  const rows = await t.database.db.execute<{ id: string }>(sql`
    insert into stock_locations (code, name, country, serves_countries, serves_regions, priority)
    values (${`L${n}-${process.pid % 1000}`}, ${name}, 'US',
            ${country ? sql`array[${country}]` : sql`'{}'`}::text[],
            ${region ? sql`array[${region}]` : sql`'{}'`}::text[], ${priority})
    returning id`);
  return rows.rows[0]!.id;
}

/** Puts `qty` of the product's total on sale at a location (the home location keeps the rest). */
async function onSaleAt(productId: string, locationId: string, qty: number): Promise<void> {
  await t.database.db.execute(sql`
    insert into location_stock (product_id, location_id, available)
    values (${productId}, ${locationId}, ${qty})`);
}

/** Each location's stock on sale and allocated for a product, the home one by its derived share. */
const stockOf = (productId: string) => stockAtLocations(t, productId);

const ship = (orderId: string, body: object) =>
  call(admin, "POST", `/api/orders/${orderId}/shipments`, body);

test("an order is allocated at the location serving its destination first, split when that one has too few, and ships from where its units wait", async () => {
  const portland = await location("Portland warehouse", "US/OR");
  await location("Dallas warehouse", "US/TX", 1);
  const p = await insertProduct(t.database.db, { availableQuantity: 30, minimumOrder: 1 });
  await onSaleAt(p.id, portland, 8);
  const customer = await signUpTrusted(t);

  // Oregon: Portland's 8 first (though Dallas has a better priority, it serves Texas), then home.
  const placed = await placeTestOrder(t.app, customer, p.id, 10);
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json().order._id as string;
  expect(await stockOf(p.id)).toEqual({
    "Main warehouse": [20, 2],
    "Portland warehouse": [0, 8],
  });
  expect((await payWithTestCard(t.app, customer, orderId)).paid.statusCode).toBe(200);

  const before = await call(admin, "GET", `/api/orders/${orderId}/shipments`);
  expect(before.json().lines[0].waitingAt).toMatchObject([
    { name: "Main warehouse", qty: 2 },
    { name: "Portland warehouse", qty: 8 },
  ]);

  // No one location has all ten: the admin says where a parcel ships from.
  const mixed = await ship(orderId, { lines: [{ line: 1, qty: 10 }] });
  expect(mixed.statusCode).toBe(422);
  expect(mixed.json().message).toBe(shipmentMessages.chooseLocation);
  const fromPortland = await ship(orderId, { lines: [{ line: 1, qty: 8 }], locationId: portland });
  expect(fromPortland.statusCode, fromPortland.body).toBe(201);
  expect(fromPortland.json().shipments[0].from).toMatchObject({ name: "Portland warehouse" });
  const nothingLeft = await ship(orderId, { lines: [{ line: 1, qty: 2 }], locationId: portland });
  expect(nothingLeft.statusCode).toBe(422);
  expect(nothingLeft.json().message).toBe(shipmentMessages.notThere(1, 0, "Portland warehouse"));
  // The rest waits at one place only: that is where it ships from.
  const rest = await ship(orderId, { lines: [{ line: 1, qty: 2 }] });
  expect(rest.statusCode, rest.body).toBe(201);
  expect(rest.json()).toMatchObject({ status: "shipped" });
  expect(rest.json().shipments[1].from).toMatchObject({ name: "Main warehouse" });
  // Shipped units leave the locations' stock on hand: nothing is allocated any more.
  expect(await stockOf(p.id)).toEqual({
    "Main warehouse": [20, 0],
    "Portland warehouse": [0, 0],
  });
});

test("cancelling gives each unit back to the location it was allocated at", async () => {
  const seattle = await location("Seattle warehouse", "US/OR", 5);
  const tacoma = await location("Tacoma warehouse", "US/OR", 1);
  const p = await insertProduct(t.database.db, { availableQuantity: 20, minimumOrder: 1 });
  await onSaleAt(p.id, seattle, 4);
  await onSaleAt(p.id, tacoma, 2);
  const customer = await signUpTrusted(t);

  // Both serve Oregon: Tacoma first (priority 1), then Seattle, then home.
  const placed = await placeTestOrder(t.app, customer, p.id, 7);
  expect(placed.statusCode, placed.body).toBe(201);
  expect(await stockOf(p.id)).toEqual({
    "Main warehouse": [13, 1],
    "Seattle warehouse": [0, 4],
    "Tacoma warehouse": [0, 2],
  });

  const cancelled = await call(admin, "PATCH", `/api/orders/${placed.json().order._id}/status`, {
    status: "cancelled",
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  expect(await stockOf(p.id)).toEqual({
    "Main warehouse": [14, 0],
    "Seattle warehouse": [4, 0],
    "Tacoma warehouse": [2, 0],
  });
});

test("concurrent orders and cancellations across three locations: never oversold anywhere, and on sale + allocated = the stock at every location", async () => {
  const a = await location("North warehouse", "US/OR", 10);
  const b = await location("South warehouse", "US/CA", 20);
  const p = await insertProduct(t.database.db, { availableQuantity: 60, minimumOrder: 7 });
  await onSaleAt(p.id, a, 20);
  await onSaleAt(p.id, b, 20);
  const customers = await Promise.all(Array.from({ length: 10 }, () => signUpTrusted(t)));

  // Ten orders of 7 for 60 units: at most eight can be served, whatever the order they arrive in.
  const answers = await Promise.all(customers.map((c) => placeTestOrder(t.app, c, p.id, 7)));
  const placed = answers
    .filter((r) => r.statusCode === 201)
    .map((r) => r.json().order._id as string);
  const refused = answers.filter((r) => r.statusCode !== 201);
  expect(placed).toHaveLength(8);
  for (const r of refused) {
    expect(r.statusCode).toBe(422);
    expect(r.json().message).toBe(orderMessages.lessThen(4));
  }
  // Three are cancelled while three more orders race them for the units they give back.
  const again = customers.filter((_, i) => answers[i]!.statusCode !== 201);
  const racing = await Promise.all([
    ...placed
      .slice(0, 3)
      .map((id) => call(admin, "PATCH", `/api/orders/${id}/status`, { status: "cancelled" })),
    ...again.map((c) => placeTestOrder(t.app, c, p.id, 7)),
  ]);
  expect(racing.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);

  const stock = await stockOf(p.id);
  const open = await t.database.db.execute<{ units: number }>(sql`
    select coalesce(sum(i.qty), 0)::int as units from order_items i join orders o on o.id = i.order_id
     where i.product_id = ${p.id} and o.status in ('unpaid', 'awaiting_approval', 'paid')`);
  const rows = Object.values(stock);
  expect(rows.every(([onSale]) => onSale! >= 0)).toBe(true);
  // Every unit is on sale or allocated to an open order, at one location: 60 in all.
  expect(rows.reduce((sum, [onSale, allocated]) => sum + onSale! + allocated!, 0)).toBe(60);
  expect(rows.reduce((sum, [, allocated]) => sum + allocated!, 0)).toBe(open.rows[0]!.units);
  const [total] = (
    await t.database.db.execute<{ available_quantity: number }>(
      sql`select available_quantity from products where id = ${p.id}`,
    )
  ).rows;
  expect(rows.reduce((sum, [onSale]) => sum + onSale!, 0)).toBe(total!.available_quantity);
});

test("the admin's stock total is the sum over locations: it cannot drop below what the other locations have on sale", async () => {
  const elsewhere = await location("Reno warehouse", "US/NV");
  const p = await insertProduct(t.database.db, { availableQuantity: 20, minimumOrder: 1 });
  await onSaleAt(p.id, elsewhere, 12);
  const edit = (availableQuantity: number, availableQuantityWas: number) =>
    call(admin, "PATCH", `/api/products/${p.id}`, { availableQuantity, availableQuantityWas });
  const below = await edit(11, 20);
  expect(below.statusCode).toBe(422);
  expect(below.json().fields).toEqual({
    availableQuantity: productFieldMessages.belowLocations(12),
  });
  // 12 in Reno, and the home location's share goes from 8 to 3.
  expect((await edit(15, 20)).statusCode).toBe(200);
  expect(await stockOf(p.id)).toEqual({ "Main warehouse": [3, 0], "Reno warehouse": [12, 0] });
});

test("with 'ship from one location', an order goes whole from the nearest location that has all of it", async () => {
  const portland = await location("Portland depot", "US/OR");
  const chicago = await location("Chicago depot", null, 50);
  // 12 pads: 5 at Portland, 5 at Chicago, 2 at home; 30 discs: 5 at Chicago, the rest at home.
  const pads = await insertProduct(t.database.db, { availableQuantity: 12, minimumOrder: 1 });
  const discs = await insertProduct(t.database.db, { availableQuantity: 30, minimumOrder: 1 });
  await onSaleAt(pads.id, portland, 5);
  await onSaleAt(pads.id, chicago, 5);
  await onSaleAt(discs.id, chicago, 5);
  const h = backorderHelpers(t, () => admin);
  const policy = (wholeOrder: boolean) =>
    h.as(admin, "PUT", "/api/locations/allocation-policy", { wholeOrder });
  const order = async () => {
    const customer = await signUpTrusted(t);
    await h.inCart(customer, pads.id, 2);
    await h.inCart(customer, discs.id, 2);
    const placed = await h.checkout(customer);
    expect(placed.statusCode, placed.body).toBe(201);
  };

  // By default each line goes from the nearest that has it: pads from Portland, discs from Chicago.
  expect((await h.as(admin, "GET", "/api/locations/allocation-policy")).json()).toEqual({
    wholeOrder: false,
  });
  await order();
  expect((await stockOf(pads.id))["Portland depot"]).toEqual([3, 2]);
  expect((await stockOf(discs.id))["Chicago depot"]).toEqual([3, 2]);

  // One location when one has it all: Chicago has both (Portland has no discs), before home.
  try {
    expect((await policy(true)).statusCode).toBe(200);
    expect((await h.as(admin, "GET", "/api/locations/allocation-policy")).json()).toEqual({
      wholeOrder: true,
    });
    await order();
    expect((await stockOf(pads.id))["Chicago depot"]).toEqual([3, 2]);
    expect((await stockOf(pads.id))["Portland depot"]).toEqual([3, 2]);
    expect((await stockOf(discs.id))["Chicago depot"]).toEqual([1, 4]);
    // Chicago is short of discs now: the home location has all of it (its last 2 pads).
    await order();
    expect((await stockOf(pads.id))["Portland depot"]).toEqual([3, 2]);
    expect((await stockOf(pads.id))["Chicago depot"]).toEqual([3, 2]);
    expect((await stockOf(discs.id))["Chicago depot"]).toEqual([1, 4]);
    // Nowhere has all of it: each line from the nearest that has it, split when short.
    await order();
    expect((await stockOf(pads.id))["Portland depot"]).toEqual([1, 4]);
    expect((await stockOf(discs.id))["Chicago depot"]).toEqual([0, 5]);
  } finally {
    expect((await policy(false)).statusCode).toBe(200);
  }
  // Bad input and other people are refused.
  const bad = await h.as(admin, "PUT", "/api/locations/allocation-policy", { wholeOrder: "yes" });
  expect(bad.statusCode).toBe(400);
  const customer = await signUpTrusted(t);
  const refused = await h.as(customer, "PUT", "/api/locations/allocation-policy", {
    wholeOrder: true,
  });
  expect(refused.statusCode).toBe(403);
});
