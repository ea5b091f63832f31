import { sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpTrusted, type TestAccount } from "../../../tests/support/accounts";
import { backorderStoreForTests } from "../../../tests/support/backorders";
import { insertProduct } from "../../../tests/support/factories";
import type { AdminHome } from "../../contract/admin-home";
import type { QueuedBackorder } from "../../contract/backorder-queue";
import type { Order } from "../../contract/orders";

// The admin's backorder queue (docs/inventory.md "The backorder queue"), through the API: every
// waiting line across parts, first placed first, with its buyer, part, units and date; by part,
// by a search, paged; a line leaves it when supply fills it or its order is cancelled.

const { t, admin, h } = backorderStoreForTests("queue-admin@example.com");
let home: string;
beforeAll(async () => {
  home = await h.homeLocation();
});

async function queue(query = "") {
  const res = await h.as(admin, "GET", `/api/backorders${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { items: res.json<QueuedBackorder[]>(), total: Number(res.headers["x-total-count"]) };
}

async function place(who: TestAccount, productId: string, qty: number, company = "") {
  await h.inCart(who, productId, qty);
  const res = await h.checkout(who, company ? "complete" : "available", company);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ order: Order }>().order;
}

test("the queue lists waiting lines across parts first placed first, with buyer, part, units and date; they leave it as supply fills them or their order is cancelled", async () => {
  const pads = await insertProduct(t.database.db, { availableQuantity: 2, minimumOrder: 1 });
  const booster = await insertProduct(t.database.db, { availableQuantity: 0, minimumOrder: 1 });
  await h.takesBackorders(pads.id);
  await h.takesBackorders(booster.id, 30);
  const run = await h.supply(pads.id, home, 10, "2027-01-12", "RUN-Q1");
  const po = await h.supply(booster.id, home, 3, "2027-02-01", "PO-Q1");

  const alice = await signUpTrusted(t);
  const bob = await signUpTrusted(t);
  const carol = await signUpTrusted(t);
  const first = await place(alice, pads.id, 6); // 2 from the shelf, 4 waiting
  const second = await place(bob, booster.id, 5, "Harbor Garage"); // 3 by the PO, 2 by lead time
  const third = await place(carol, pads.id, 3); // 3 waiting

  const all = await queue();
  const mine = all.items.filter((b) => [pads.id, booster.id].includes(b.productId));
  expect(mine.map((b) => [b.orderNumber, b.waiting])).toEqual([
    [first.number, 4],
    [second.number, 5],
    [third.number, 3],
  ]);
  expect(mine[0]).toMatchObject({
    orderId: first._id,
    line: 1,
    customerEmail: alice.email,
    companyName: null,
    productName: pads.name,
    partNumber: pads.partNumber,
    qty: 4,
    promisedOn: "2027-01-12",
    shipComplete: false,
  });
  expect(mine[1]).toMatchObject({
    companyName: "Harbor Garage",
    customerEmail: bob.email,
    shipComplete: true,
  });
  // 3 of its 5 are covered by the PO, the rest only by the lead time: the line has the lead time's.
  const lead = await t.database.db.execute<{ on: string }>(
    sql`select (current_date + 30)::text as on`,
  );
  expect(mine[1]!.promisedOn).toBe(lead.rows[0]!.on);
  expect(new Date(mine[0]!.placedAt).getTime()).toBeLessThanOrEqual(
    new Date(mine[2]!.placedAt).getTime(),
  );

  // By part, by search (order number, part number, email, company), paged.
  const byPart = await queue(`?productId=${pads.id}`);
  expect(byPart.total).toBe(2);
  expect(byPart.items.map((b) => b.orderId)).toEqual([first._id, third._id]);
  expect((await queue(`?q=${encodeURIComponent(second.number)}`)).items).toHaveLength(1);
  expect((await queue(`?q=${encodeURIComponent(second.number.slice(3))}`)).items).toHaveLength(1);
  expect((await queue(`?q=${pads.partNumber.toLowerCase()}`)).total).toBe(2);
  expect((await queue(`?q=harbor`)).items.map((b) => b.orderId)).toEqual([second._id]);
  expect((await queue(`?q=${encodeURIComponent(bob.email)}`)).items).toHaveLength(1);
  expect((await queue(`?q=nothing-like-this-%25`)).total).toBe(0);
  const page2 = await queue(`?productId=${pads.id}&limit=1&offset=1`);
  expect(page2).toEqual({ items: [byPart.items[1]], total: 2 });

  // The Today page counts the units waiting.
  const today = (await h.as(admin, "GET", "/api/admin-home")).json<AdminHome>();
  expect(today.backorders.units).toBeGreaterThanOrEqual(12);
  expect(today.backorders.lines).toBeGreaterThanOrEqual(3);

  // The PO is cancelled: the booster's line keeps only its lead time's date.
  expect((await h.as(admin, "POST", `/api/incoming-supply/${po}/cancel`)).statusCode).toBe(200);
  // Part of the run arrives: the first line is filled and leaves; the third is partly filled.
  const received = await h.as(admin, "POST", `/api/incoming-supply/${run}/receive`, { qty: 5 });
  expect(received.statusCode, received.body).toBe(200);
  const after = await queue(`?productId=${pads.id}`);
  expect(after.items.map((b) => [b.orderId, b.waiting, b.qty])).toEqual([[third._id, 2, 3]]);

  // The second order is cancelled by its buyer: it leaves the queue.
  const cancelled = await h.as(bob, "DELETE", `/api/orders/${second._id}`);
  expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
  expect((await queue(`?productId=${booster.id}`)).total).toBe(0);
});

test("a part with nothing coming and no lead time says no date", async () => {
  const part = await insertProduct(t.database.db, { availableQuantity: 0, minimumOrder: 1 });
  await h.takesBackorders(part.id);
  const run = await h.supply(part.id, home, 4, "2027-03-01", "RUN-Q2");
  const buyer = await signUpTrusted(t);
  const order = await place(buyer, part.id, 4);
  expect((await h.as(admin, "POST", `/api/incoming-supply/${run}/cancel`)).statusCode).toBe(200);
  const { items } = await queue(`?productId=${part.id}`);
  expect(items).toMatchObject([{ orderId: order._id, waiting: 4, promisedOn: null }]);
});

test("bad input is a 400 with words; customers are refused", async () => {
  const bad = await h.as(admin, "GET", "/api/backorders?productId=nope");
  expect(bad.statusCode).toBe(400);
  expect(bad.body).toContain("Malformed id");
  expect((await h.as(admin, "GET", "/api/backorders?limit=100000")).statusCode).toBe(400);
  expect((await h.as(admin, "GET", `/api/backorders?q=${"x".repeat(101)}`)).statusCode).toBe(400);
  const buyer = await signUpTrusted(t);
  expect((await h.as(buyer, "GET", "/api/backorders")).statusCode).toBe(403);
});
