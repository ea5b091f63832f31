import type pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { signUp, signUpAdmin, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { watchQueries } from "../../../tests/support/query-spy";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { baseVehicles, vehicleMakes, vehicleModels } from "../db/schema";

// How many statements a placement sends to PostgreSQL, counted on the wire (every query of the
// app's pool between the transaction's `begin` and its `commit`, both included). Each is a round
// trip; the hot path is kept short on purpose (docs/decisions/011-checkout-workflow.md), so a
// statement added back fails here and has to be argued for.

let t: TestApp;
let standardId: string;

type Method = "GET" | "POST" | "PUT";
const call = (who: TestAccount | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: who ? { cookie: who.cookie } : {} });

/** The statements of each transaction the app's pool ran while `work` ran, in order. */
async function transactionsDuring(work: () => Promise<unknown>): Promise<string[][]> {
  const open = new Map<pg.Client, string[]>();
  const done: string[][] = [];
  // The app's pool's connections only: the mail queue's and the test's own are not counted.
  await watchQueries(
    t.database.pool,
    (query, client) => {
      const text = query.text.trim();
      const head = text.toLowerCase();
      if (head === "begin") open.set(client, []);
      open.get(client)?.push(text.replace(/\s+/g, " "));
      if (head === "commit" || head === "rollback") {
        done.push(open.get(client) ?? []);
        open.delete(client);
      }
    },
    work,
  );
  return done;
}

/** The transaction that wrote the order. */
const placement = (transactions: string[][]) => {
  const found = transactions.filter((s) => s.some((q) => /insert into orders/i.test(q)));
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** The statements, one line each, for a failure's message. */
const shown = (statements: string[]) => statements.map((q) => q.slice(0, 100)).join("\n");

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: "trips-admin@example.com" });
  const admin = await signUpAdmin(t, { email: "trips-admin@example.com" });
  const zone = await call(admin, "POST", "/api/shipping-zones", {
    name: "United States",
    countries: ["US"],
    methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 9.95 }],
  });
  expect(zone.statusCode, zone.body).toBe(201);
  standardId = zone.json().methods[0].id;
  const rate = await call(admin, "POST", "/api/tax-rates", {
    country: "US",
    region: "TX",
    name: "Texas sales tax",
    rate: 6.25,
  });
  expect(rate.statusCode, rate.body).toBe(201);
});
afterAll(() => t.close());

const part = () =>
  insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1, availableQuantity: 50 });

test("a five-line cart checkout with shipping and tax is 6 statements, begin and commit included", async () => {
  const me = await signUp(t.app);
  const parts = await Promise.all(Array.from({ length: 5 }, part));
  const merged = await call(me, "POST", "/api/cart/merge", {
    items: parts.map((p) => ({ productId: p.id, qty: 1 })),
  });
  expect(merged.statusCode, merged.body).toBeLessThan(300);
  const address = await call(me, "POST", "/api/user/addresses", {
    name: "Jane Doe",
    line1: "100 Congress Ave",
    city: "Austin",
    region: "TX",
    postalCode: "78701",
    country: "US",
    phone: "5125550100",
  });
  expect(address.statusCode, address.body).toBe(201);
  const quote = await call(me, "POST", "/api/cart/quote", {
    addressId: address.json().id,
    shippingMethodId: standardId,
  });
  expect(quote.statusCode, quote.body).toBe(200);
  expect(quote.json().tax).toBeGreaterThan(0);

  let placed: Awaited<ReturnType<typeof call>> | undefined;
  const transactions = await transactionsDuring(async () => {
    placed = await call(me, "POST", "/api/checkout", {
      addressId: address.json().id,
      shippingMethodId: standardId,
      expectedTotal: quote.json().total,
    });
  });
  expect(placed!.statusCode, placed!.body).toBe(201);
  expect(placed!.json().order.items).toHaveLength(5);
  const statements = placement(transactions);
  // begin; lock the customer and count the placement; read; write the order, take its stock
  // and empty the cart; queue the email; commit.
  expect(statements, shown(statements)).toHaveLength(6);
});

test("a one-product order is 6 statements, begin and commit included", async () => {
  const me = await signUp(t.app);
  const p = await part();
  let placed: Awaited<ReturnType<typeof call>> | undefined;
  const transactions = await transactionsDuring(async () => {
    placed = await call(me, "POST", "/api/orders", {
      productId: p.id,
      orderQty: 2,
      phonrNo: "5550100",
      Address: "1 Dock Road",
    });
  });
  expect(placed!.statusCode, placed!.body).toBe(201);
  const statements = placement(transactions);
  // begin; lock the customer and count the placement; read; write the order and take its
  // stock; queue the email; commit.
  expect(statements, shown(statements)).toHaveLength(6);
});

test("a cart checkout whose lines have vehicles is still 6 statements", async () => {
  const me = await signUp(t.app);
  const db = t.database.db;
  const [make] = await db.insert(vehicleMakes).values({ name: "Honda" }).returning();
  const [model] = await db
    .insert(vehicleModels)
    .values({ makeId: make!.id, name: "Civic" })
    .returning();
  await db.insert(baseVehicles).values({ modelId: model!.id, year: 2018 });
  const civic = { year: 2018, make: make!.id, model: model!.id };
  const [a, b] = [await part(), await part()];
  for (const [p, body] of [
    [a, { qty: 1, vehicle: civic }],
    [b, { qty: 1 }],
  ] as const) {
    const res = await call(me, "PUT", `/api/cart/items/${p.id}`, body);
    expect(res.statusCode, res.body).toBe(200);
  }
  const cart = (await call(me, "GET", "/api/cart")).json();
  let placed: Awaited<ReturnType<typeof call>> | undefined;
  const transactions = await transactionsDuring(async () => {
    placed = await call(me, "POST", "/api/checkout", {
      phonrNo: "5550100",
      Address: "1 Dock Road",
      expectedTotal: cart.total,
      vehicle: civic,
    });
  });
  expect(placed!.statusCode, placed!.body).toBe(201);
  expect(placed!.json().order.items.map((l: { vehicle: string }) => l.vehicle)).toEqual([
    "2018 Honda Civic",
    "2018 Honda Civic",
  ]);
  const statements = placement(transactions);
  // The lines' vehicles are named in the read: no statement of their own.
  expect(statements, shown(statements)).toHaveLength(6);
});
