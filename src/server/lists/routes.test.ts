import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { appForTests } from "../../../tests/support/store";
import type { ListAdded, ListSummary, SavedList } from "../../contract/lists";

const { t } = appForTests();

const call = (
  who: TestAccount,
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  url: string,
  payload?: object,
) => t.app.inject({ method, url: `/api${url}`, headers: { cookie: who.cookie }, payload });

test("a list is made, filled, renamed, emptied and deleted by its owner", async () => {
  const me = await signUp(t.app);
  const [a, b] = await Promise.all([
    insertProduct(t.database.db, { minimumOrder: 1, priceCents: 1500 }),
    insertProduct(t.database.db, { minimumOrder: 1 }),
  ]);
  const made = await call(me, "POST", "/lists", {
    name: "  Monthly fleet service kit ",
    items: [
      { productId: a.id, qty: 2 },
      { productId: a.id, qty: 1 },
    ],
  });
  expect(made.statusCode, made.body).toBe(201);
  const list = made.json<SavedList>();
  expect(list.name).toBe("Monthly fleet service kit");
  expect(list.lines.map((l) => [l.productId, l.qty, l.unitPrice])).toEqual([[a.id, 3, 15]]);

  const put = await call(me, "PUT", `/lists/${list.id}/items/${b.id}`, { qty: 4 });
  expect(put.json<SavedList>().lines.map((l) => [l.productId, l.qty])).toEqual([
    [a.id, 3],
    [b.id, 4],
  ]);
  const changed = await call(me, "PUT", `/lists/${list.id}/items/${a.id}`, { qty: 7 });
  expect(changed.json<SavedList>().lines[0]!.qty).toBe(7);
  const renamed = await call(me, "PATCH", `/lists/${list.id}`, { name: "Kit" });
  expect(renamed.json<SavedList>().name).toBe("Kit");
  const all = await call(me, "GET", "/lists");
  expect(all.json<ListSummary[]>().map((l) => [l.name, l.lineCount])).toEqual([["Kit", 2]]);
  const removed = await call(me, "DELETE", `/lists/${list.id}/items/${a.id}`);
  expect(removed.json<SavedList>().lines.map((l) => l.productId)).toEqual([b.id]);
  expect((await call(me, "DELETE", `/lists/${list.id}`)).statusCode).toBe(204);
  expect((await call(me, "GET", `/lists/${list.id}`)).statusCode).toBe(404);
  expect((await call(me, "GET", "/lists")).json()).toEqual([]);
});

test("a list name is unique per customer whatever its case; bad input is 400", async () => {
  const me = await signUp(t.app);
  const other = await signUp(t.app);
  expect((await call(me, "POST", "/lists", { name: "Brakes" })).statusCode).toBe(201);
  const dup = await call(me, "POST", "/lists", { name: "BRAKES" });
  expect(dup.statusCode).toBe(409);
  expect(dup.json().message).toBe("You already have a list with this name");
  expect((await call(other, "POST", "/lists", { name: "Brakes" })).statusCode).toBe(201);
  expect((await call(me, "POST", "/lists", { name: "   " })).statusCode).toBe(400);
  expect((await call(me, "POST", "/lists", { name: "x".repeat(81) })).statusCode).toBe(400);
  const missing = await call(me, "POST", "/lists", {
    name: "Ghost",
    items: [{ productId: crypto.randomUUID(), qty: 1 }],
  });
  expect(missing.statusCode).toBe(404);
  expect((await call(me, "GET", "/lists")).json()).toHaveLength(1);
  const second = (await call(me, "POST", "/lists", { name: "Second" })).json<SavedList>();
  const clash = await call(me, "PATCH", `/lists/${second.id}`, { name: "brakes" });
  expect(clash.statusCode).toBe(409);
  const p = await insertProduct(t.database.db);
  expect((await call(me, "PUT", `/lists/${second.id}/items/${p.id}`, { qty: 0 })).statusCode).toBe(
    400,
  );
  expect(
    (await call(me, "PUT", `/lists/${second.id}/items/${crypto.randomUUID()}`, { qty: 1 }))
      .statusCode,
  ).toBe(404);
});

test("another customer's list does not exist for them", async () => {
  const owner = await signUp(t.app);
  const other = await signUp(t.app);
  const p = await insertProduct(t.database.db);
  const list = (
    await call(owner, "POST", "/lists", { name: "Mine", items: [{ productId: p.id, qty: 2 }] })
  ).json<SavedList>();
  for (const [method, url, body] of [
    ["GET", `/lists/${list.id}`],
    ["PATCH", `/lists/${list.id}`, { name: "Theirs" }],
    ["DELETE", `/lists/${list.id}`],
    ["PUT", `/lists/${list.id}/items/${p.id}`, { qty: 9 }],
    ["DELETE", `/lists/${list.id}/items/${p.id}`],
    ["POST", `/lists/${list.id}/add-to-cart`],
  ] as const) {
    expect((await call(other, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
  }
  const still = (await call(owner, "GET", `/lists/${list.id}`)).json<SavedList>();
  expect([still.name, still.lines[0]!.qty]).toEqual(["Mine", 2]);
});

test("a whole list goes into the cart at today's prices, fitted to the minimum and the stock", async () => {
  const me = await signUp(t.app);
  const db = t.database.db;
  const [ok, min, few, none] = await Promise.all([
    insertProduct(db, { minimumOrder: 1, availableQuantity: 100, priceCents: 700 }),
    insertProduct(db, { minimumOrder: 5, availableQuantity: 100 }),
    insertProduct(db, { minimumOrder: 1, availableQuantity: 3 }),
    insertProduct(db, { minimumOrder: 1, availableQuantity: 0 }),
  ]);
  const list = (
    await call(me, "POST", "/lists", {
      name: "Service",
      items: [
        { productId: ok.id, qty: 2 },
        { productId: min.id, qty: 1 },
        { productId: few.id, qty: 10 },
        { productId: none.id, qty: 1 },
      ],
    })
  ).json<SavedList>();
  const res = await call(me, "POST", `/lists/${list.id}/add-to-cart`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<ListAdded>();
  expect(body.added).toBe(3);
  expect(body.cart.lines.map((l) => [l.productId, l.qty])).toEqual([
    [ok.id, 2],
    [min.id, 5],
    [few.id, 3],
  ]);
  expect(body.cart.lines[0]!.unitPrice).toBe(7);
  expect(body.notes.map((n) => n.message)).toEqual([
    `${min.name}: at least 5 per order, so 5 instead of 1`,
    `${few.name}: only 3 in stock, so 3 instead of 10`,
    `${none.name} is out of stock`,
  ]);
  const empty = (await call(me, "POST", "/lists", { name: "Empty" })).json<SavedList>();
  const nothing = await call(me, "POST", `/lists/${empty.id}/add-to-cart`);
  expect(nothing.statusCode).toBe(422);
  expect(nothing.json().message).toBe("This list is empty");
});
