import { and, count, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct, insertVehicle } from "../../../tests/support/factories";
import { pdfText } from "../../../tests/support/pdf-text";
import { storeForTests } from "../../../tests/support/store";
import { payWithTestCard } from "../../../tests/support/payments";
import { vehicleMessages } from "../../contract/vehicles";
import {
  baseVehicleEngines,
  baseVehicles,
  vehicleEngines,
  vehicleModels,
} from "../vehicles/tables";
import { cartItems } from "../cart/tables";
import { orderItems, orders } from "../orders/tables";
import { products } from "../catalog/tables";

/** The vehicle on the order line (docs/vehicle-on-line.md), through the API. */

let corolla: { year: number; make: number; model: number };
let baseVehicleId: number;
let engine18: number;
let engineOther: number;

const { t, call, admin } = storeForTests({
  admin: "vol-admin@example.com",
  shipsToTestAddress: true,
});
beforeAll(async () => {
  const db = t.database.db;
  const { choice, baseVehicleIds } = await insertVehicle(db, "Toyota", "Corolla", [2016]);
  baseVehicleId = baseVehicleIds[0]!;
  const [e18, eOther] = await db
    .insert(vehicleEngines)
    .values([{ name: "1.8" }, { name: "2.4 V6" }])
    .returning();
  // The Corolla was built with the 1.8 only.
  await db.insert(baseVehicleEngines).values({ baseVehicleId, engineId: e18!.id });
  corolla = choice;
  engine18 = e18!.id;
  engineOther = eOther!.id;
});

const delivery = { phonrNo: "5550100", Address: "1 Dock Road", shipTo: TEST_SHIP_TO };
const orderOne = (who: TestAccount, productId: string, extra: object = {}) =>
  call(who, "POST", "/api/orders", { productId, orderQty: 2, ...delivery, ...extra });
const part = () =>
  insertProduct(t.database.db, { priceCents: 2000, minimumOrder: 1, availableQuantity: 50 });
const linesOf = (orderId: string) =>
  t.database.db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.line);
const ordersOf = async (who: TestAccount) =>
  (
    await t.database.db.select({ n: count() }).from(orders).where(eq(orders.orderEmail, who.email))
  )[0]!.n;

test("a one-product order keeps the chosen vehicle, named by the server", async () => {
  const me = await signUp(t.app);
  const p = await part();
  const res = await orderOne(me, p.id, { vehicle: { ...corolla, engine: engine18 } });
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json().order;
  expect(order.items[0].vehicle).toBe("2016 Toyota Corolla 1.8");
  const [line] = await linesOf(order._id);
  expect(line).toMatchObject({
    vehicleBaseVehicleId: baseVehicleId,
    vehicleEngineId: engine18,
    vehicleLabel: "2016 Toyota Corolla 1.8",
  });
  // Read back as the order page reads it.
  const got = await call(me, "GET", `/api/orders/${order._id}`);
  expect(got.statusCode, got.body).toBe(200);
  expect(got.json().items[0].vehicle).toBe("2016 Toyota Corolla 1.8");
});

test("without an engine the line names year, make and model; without a vehicle, nothing", async () => {
  const me = await signUp(t.app);
  const withoutEngine = await orderOne(me, (await part()).id, { vehicle: corolla });
  expect(withoutEngine.statusCode, withoutEngine.body).toBe(201);
  expect(withoutEngine.json().order.items[0].vehicle).toBe("2016 Toyota Corolla");
  const [l1] = await linesOf(withoutEngine.json().order._id);
  expect(l1).toMatchObject({ vehicleBaseVehicleId: baseVehicleId, vehicleEngineId: null });

  const none = await orderOne(me, (await part()).id);
  expect(none.statusCode, none.body).toBe(201);
  expect(none.json().order.items[0].vehicle).toBeNull();
  const [l2] = await linesOf(none.json().order._id);
  expect(l2).toMatchObject({
    vehicleBaseVehicleId: null,
    vehicleEngineId: null,
    vehicleLabel: null,
  });
});

test("a vehicle the catalog does not know is refused with 400, and nothing is ordered", async () => {
  const me = await signUp(t.app);
  const p = await part();
  for (const vehicle of [
    { ...corolla, year: 2017 }, // no such model year
    { ...corolla, make: corolla.make + 1000 }, // the model is not of this make
    { ...corolla, engine: engineOther }, // not built with this engine
    { ...corolla, engine: 2_000_000 }, // no such engine
  ]) {
    const res = await orderOne(me, p.id, { vehicle });
    expect(res.statusCode, JSON.stringify(vehicle)).toBe(400);
    expect(res.json()).toMatchObject({
      error: "unknown_vehicle",
      message: vehicleMessages.unknownVehicle,
    });
  }
  // A name sent by the browser is never taken: the body is refused as malformed.
  const named = await orderOne(me, p.id, { vehicle: { ...corolla, label: "Ferrari F40" } });
  expect(named.statusCode).toBe(400);
  const malformed = await orderOne(me, p.id, { vehicle: { year: 2016, make: "x", model: 1 } });
  expect(malformed.statusCode).toBe(400);

  expect(await ordersOf(me)).toBe(0);
  const [stock] = await t.database.db.select().from(products).where(eq(products.id, p.id));
  expect(stock!.availableQuantity).toBe(50);
});

test("a cart checkout keeps the vehicle on every line", async () => {
  const me = await signUp(t.app);
  const [a, b] = [await part(), await part()];
  for (const p of [a, b]) {
    expect((await call(me, "PUT", `/api/cart/items/${p.id}`, { qty: 1 })).statusCode).toBe(200);
  }
  const cart = (await call(me, "GET", "/api/cart")).json();
  const refused = await call(me, "POST", "/api/checkout", {
    ...delivery,
    expectedTotal: cart.total,
    vehicle: { ...corolla, year: 1999 },
  });
  expect(refused.statusCode).toBe(400);
  // Refused: the cart is still there.
  expect((await call(me, "GET", "/api/cart")).json().lines).toHaveLength(2);

  const res = await call(me, "POST", "/api/checkout", {
    ...delivery,
    expectedTotal: cart.total,
    vehicle: { ...corolla, engine: engine18 },
  });
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json().order;
  expect(order.items.map((l: { vehicle: string }) => l.vehicle)).toEqual([
    "2016 Toyota Corolla 1.8",
    "2016 Toyota Corolla 1.8",
  ]);
});

test("the line keeps the name it was ordered under when the catalog changes", async () => {
  const me = await signUp(t.app);
  const res = await orderOne(me, (await part()).id, { vehicle: corolla });
  expect(res.statusCode, res.body).toBe(201);
  const db = t.database.db;
  // Renamed, then a model year deleted: the line keeps its words, its id becomes null.
  const auris = await insertVehicle(db, corolla.make, "Auris", [2015]);
  const other = await orderOne(me, (await part()).id, { vehicle: auris.choice });
  expect(other.statusCode, other.body).toBe(201);
  await db
    .update(vehicleModels)
    .set({ name: "Corolla Renamed" })
    .where(eq(vehicleModels.id, corolla.model));
  await db.delete(baseVehicles).where(eq(baseVehicles.id, auris.baseVehicleIds[0]!));

  const [kept] = await linesOf(res.json().order._id);
  expect(kept!.vehicleLabel).toBe("2016 Toyota Corolla");
  const [gone] = await linesOf(other.json().order._id);
  expect(gone).toMatchObject({ vehicleBaseVehicleId: null, vehicleLabel: "2015 Toyota Auris" });
  await db
    .update(vehicleModels)
    .set({ name: "Corolla" })
    .where(eq(vehicleModels.id, corolla.model));
});

test("the invoice shows the vehicle under the line, and a did-not-fit return starts from it", async () => {
  const me = await signUp(t.app);
  const p = await part();
  const placed = await orderOne(me, p.id, { vehicle: { ...corolla, engine: engine18 } });
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json().order._id as string;
  const { intent, charged, paid } = await payWithTestCard(t.app, me, orderId);
  expect(intent.statusCode, intent.body).toBe(200);
  expect(charged.statusCode, charged.body).toBe(200);
  expect(paid.statusCode, paid.body).toBe(200);

  const pdf = await call(me, "GET", `/api/orders/${orderId}/invoice.pdf`);
  expect(pdf.statusCode).toBe(200);
  const { text } = await pdfText(new Uint8Array(pdf.rawPayload));
  expect(text).toContain("For: 2016 Toyota Corolla 1.8");

  const shipped = await call(admin, "PATCH", `/api/orders/${orderId}/status`, {
    status: "shipped",
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  // The return form starts from the line's vehicle.
  const returnable = await call(me, "GET", `/api/orders/${orderId}/returnable`);
  expect(returnable.statusCode, returnable.body).toBe(200);
  expect(returnable.json().lines[0]).toMatchObject({
    line: 1,
    vehicle: "2016 Toyota Corolla 1.8",
  });
  // Asked without naming a vehicle, the return takes the line's.
  const asked = await call(me, "POST", `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 1 }],
    reason: "did_not_fit",
  });
  expect(asked.statusCode, asked.body).toBe(201);
  expect(asked.json().vehicle).toBe("2016 Toyota Corolla 1.8");
  // The customer may name another one.
  const edited = await call(me, "POST", `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 1 }],
    reason: "did_not_fit",
    vehicle: "2016 Toyota Corolla 2.0 hybrid",
  });
  expect(edited.statusCode, edited.body).toBe(201);
  expect(edited.json().vehicle).toBe("2016 Toyota Corolla 2.0 hybrid");
});

// --- The vehicle per cart line ---

const put = (who: TestAccount, productId: string, body: object) =>
  call(who, "PUT", `/api/cart/items/${productId}`, body);
const cartLines = async (who: TestAccount) => {
  const res = await call(who, "GET", "/api/cart");
  expect(res.statusCode, res.body).toBe(200);
  return res.json().lines as { productId: string; qty: number; vehicle: string | null }[];
};

/** A second vehicle of the catalog: 2019 Toyota RAV4 2.5 (made once, for the tests below). */
let rav4: { year: number; make: number; model: number; engine: number } | undefined;
async function theRav4() {
  if (rav4) return rav4;
  const db = t.database.db;
  const { choice, baseVehicleIds } = await insertVehicle(db, corolla.make, "RAV4", [2019]);
  const [e25] = await db.insert(vehicleEngines).values({ name: "2.5" }).returning();
  await db
    .insert(baseVehicleEngines)
    .values({ baseVehicleId: baseVehicleIds[0]!, engineId: e25!.id });
  rav4 = { ...choice, engine: e25!.id };
  return rav4;
}

test("a part added to the cart for a vehicle keeps it; the cart names it", async () => {
  const me = await signUp(t.app);
  const [a, b] = [await part(), await part()];
  const added = await put(me, a.id, { qty: 1, vehicle: { ...corolla, engine: engine18 } });
  expect(added.statusCode, added.body).toBe(200);
  expect(added.json().lines[0]).toMatchObject({
    productId: a.id,
    vehicle: "2016 Toyota Corolla 1.8",
  });
  expect((await put(me, b.id, { qty: 1 })).statusCode).toBe(200);
  const lines = await cartLines(me);
  expect(lines.map((l) => l.vehicle)).toEqual(["2016 Toyota Corolla 1.8", null]);
  const [row] = await t.database.db
    .select()
    .from(cartItems)
    .where(and(eq(cartItems.productId, a.id), eq(cartItems.vehicleBaseVehicleId, baseVehicleId)));
  expect(row).toMatchObject({ vehicleEngineId: engine18 });
});

test("adding the part again: the line keeps the latest vehicle; a quantity change keeps it", async () => {
  const me = await signUp(t.app);
  const p = await part();
  const other = await theRav4();
  expect((await put(me, p.id, { qty: 1, vehicle: corolla })).statusCode).toBe(200);
  expect((await put(me, p.id, { qty: 2, vehicle: other })).statusCode).toBe(200);
  expect(await cartLines(me)).toMatchObject([{ qty: 2, vehicle: "2019 Toyota RAV4 2.5" }]);
  // The cart page changes the quantity without a vehicle: the line's stays.
  expect((await put(me, p.id, { qty: 3 })).statusCode).toBe(200);
  expect(await cartLines(me)).toMatchObject([{ qty: 3, vehicle: "2019 Toyota RAV4 2.5" }]);
});

test("adding for a vehicle the catalog does not know is a 400, and the cart is untouched", async () => {
  const me = await signUp(t.app);
  const [p, q] = [await part(), await part()];
  expect((await put(me, p.id, { qty: 1, vehicle: corolla })).statusCode).toBe(200);
  for (const vehicle of [
    { ...corolla, year: 2017 },
    { ...corolla, make: corolla.make + 1000 },
    { ...corolla, engine: engineOther },
    { ...corolla, engine: 2_000_000 },
  ]) {
    for (const id of [p.id, q.id]) {
      const res = await put(me, id, { qty: 5, vehicle });
      expect(res.statusCode, JSON.stringify(vehicle)).toBe(400);
      expect(res.json()).toEqual({
        error: "unknown_vehicle",
        message: vehicleMessages.unknownVehicle,
        fields: { vehicle: vehicleMessages.unknownVehicle },
      });
    }
  }
  // A name from the browser, or malformed ids: refused as malformed.
  expect((await put(me, q.id, { qty: 1, vehicle: { ...corolla, label: "F40" } })).statusCode).toBe(
    400,
  );
  expect(
    (await put(me, q.id, { qty: 1, vehicle: { year: 2016, make: "x", model: 1 } })).statusCode,
  ).toBe(400);
  expect(await cartLines(me)).toMatchObject([
    { productId: p.id, qty: 1, vehicle: "2016 Toyota Corolla" },
  ]);
});

test("checkout: each line keeps its cart line's vehicle; the checkout's fills only lines without one", async () => {
  const me = await signUp(t.app);
  const [a, b, c] = [await part(), await part(), await part()];
  const other = await theRav4();
  expect(
    (await put(me, a.id, { qty: 1, vehicle: { ...corolla, engine: engine18 } })).statusCode,
  ).toBe(200);
  expect((await put(me, b.id, { qty: 1, vehicle: other })).statusCode).toBe(200);
  expect((await put(me, c.id, { qty: 1 })).statusCode).toBe(200);
  const cart = (await call(me, "GET", "/api/cart")).json();
  const res = await call(me, "POST", "/api/checkout", {
    ...delivery,
    expectedTotal: cart.total,
    vehicle: corolla,
  });
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json().order;
  const byProduct = (items: { productId: string; vehicle: string | null }[]) =>
    Object.fromEntries(items.map((l) => [l.productId, l.vehicle]));
  expect(byProduct(order.items)).toEqual({
    [a.id]: "2016 Toyota Corolla 1.8",
    [b.id]: "2019 Toyota RAV4 2.5",
    [c.id]: "2016 Toyota Corolla",
  });
  const stored = await linesOf(order._id);
  expect(
    Object.fromEntries(
      stored.map((l) => [l.productId, [l.vehicleBaseVehicleId, l.vehicleEngineId]]),
    ),
  ).toEqual({
    [a.id]: [baseVehicleId, engine18],
    [b.id]: [expect.any(Number), other.engine],
    [c.id]: [baseVehicleId, null],
  });
  // Read back as the order page reads it.
  const got = await call(me, "GET", `/api/orders/${order._id}`);
  expect(byProduct(got.json().items)).toEqual(byProduct(order.items));
});

test("checkout without a vehicle: lines keep their own, the others none", async () => {
  const me = await signUp(t.app);
  const [a, b] = [await part(), await part()];
  expect((await put(me, a.id, { qty: 1, vehicle: corolla })).statusCode).toBe(200);
  expect((await put(me, b.id, { qty: 1 })).statusCode).toBe(200);
  const cart = (await call(me, "GET", "/api/cart")).json();
  const res = await call(me, "POST", "/api/checkout", { ...delivery, expectedTotal: cart.total });
  expect(res.statusCode, res.body).toBe(201);
  const vehicles = Object.fromEntries(
    res
      .json()
      .order.items.map((l: { productId: string; vehicle: string | null }) => [
        l.productId,
        l.vehicle,
      ]),
  );
  expect(vehicles).toEqual({ [a.id]: "2016 Toyota Corolla", [b.id]: null });
});

test("a visitor's lines carry their vehicles into the quote and through the merge at sign-in", async () => {
  const me = await signUp(t.app);
  const [a, b, c] = [await part(), await part(), await part()];
  const other = await theRav4();
  const items = [
    { productId: a.id, qty: 1, vehicle: { ...corolla, engine: engine18 } },
    { productId: b.id, qty: 1, vehicle: { ...corolla, year: 1999 } }, // unknown: left off
    { productId: c.id, qty: 2, vehicle: other },
  ];
  const quote = await call(undefined, "POST", "/api/cart/quote", { items });
  expect(quote.statusCode, quote.body).toBe(200);
  expect(quote.json().lines.map((l: { vehicle: string | null }) => l.vehicle)).toEqual([
    "2016 Toyota Corolla 1.8",
    null,
    "2019 Toyota RAV4 2.5",
  ]);
  // The account's cart has c without a vehicle and a under the RAV4.
  expect((await put(me, c.id, { qty: 1 })).statusCode).toBe(200);
  expect((await put(me, a.id, { qty: 1, vehicle: other })).statusCode).toBe(200);
  const merged = await call(me, "POST", "/api/cart/merge", {
    items: [...items, { productId: (await part()).id, qty: 1 }],
  });
  expect(merged.statusCode, merged.body).toBe(200);
  const lines = await cartLines(me);
  expect(Object.fromEntries(lines.map((l) => [l.productId, l.vehicle]))).toMatchObject({
    [a.id]: "2016 Toyota Corolla 1.8", // the visitor's, added last
    [b.id]: null,
    [c.id]: "2019 Toyota RAV4 2.5",
  });
});

test("a vehicle deleted from the catalog leaves the cart line without one", async () => {
  const me = await signUp(t.app);
  const p = await part();
  const db = t.database.db;
  const { choice: yaris, baseVehicleIds } = await insertVehicle(db, corolla.make, "Yaris", [2012]);
  expect((await put(me, p.id, { qty: 1, vehicle: yaris })).statusCode).toBe(200);
  expect(await cartLines(me)).toMatchObject([{ vehicle: "2012 Toyota Yaris" }]);
  await db.delete(baseVehicles).where(eq(baseVehicles.id, baseVehicleIds[0]!));
  expect(await cartLines(me)).toMatchObject([{ vehicle: null }]);
  const cart = (await call(me, "GET", "/api/cart")).json();
  const res = await call(me, "POST", "/api/checkout", { ...delivery, expectedTotal: cart.total });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().order.items[0].vehicle).toBeNull();
});
