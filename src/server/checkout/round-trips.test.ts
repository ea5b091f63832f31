import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import {
  TEST_SHIP_TO,
  shipsToTestAddress,
  AUSTIN_ADDRESS,
  flatUsShipping,
  texasSalesTax,
} from "../../../tests/support/destination";
import { insertProduct, insertVehicle } from "../../../tests/support/factories";
import { watchQueries } from "../../../tests/support/query-spy";
import { injectAs } from "../../../tests/support/requests";
import { storeForTests } from "../../../tests/support/store";
import { createTestApp } from "../../../tests/support/test-app";

// How many statements a placement sends to PostgreSQL, counted on the wire (every query of the
// app's pool while the request runs). Each is a round trip; the hot path is kept short on purpose
// (docs/decisions/011-checkout-workflow.md, "Placed in two statements"), so a statement added
// back fails here and has to be argued for.

const { t, call, admin } = storeForTests({
  admin: "trips-admin@example.com",
  shipsToTestAddress: true,
});
let standardId: string;

/** The statements the app's pool sent while `work` ran, in order, one line each. */
async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  // The app's pool's connections only: the mail queue's and the test's own are not counted.
  await watchQueries(t.database.pool, (query) => seen.push(query.text.replace(/\s+/g, " ")), work);
  return seen;
}

/** The statements, one line each, for a failure's message. */
const shown = (statements: string[]) => statements.map((q) => q.slice(0, 100)).join("\n");

/** What each statement is, by what it does first. */
const KINDS: [RegExp, string][] = [
  [/^select u\.id, s\.id as "sessionId"/, "session"],
  [/insert into orders/, "write"],
  [/^begin$/i, "begin"],
  [/^commit$/i, "commit"],
  [/^with locked as \(update "user" set revision/, "customer locked"],
  [/for no key update$/, "products locked"],
  [/^with wanted as/, "read"],
  [/^select product_id from cart_items/, "gates"],
  // Kept in memory for the market a request prices in (docs/pricing.md "The market chosen"): a
  // customer's delivery countries once after their address book changed, the markets once.
  [/^select "id", "country", "is_default" from "addresses"/, "their countries"],
  [/^select "id", "code", "name", "currency"/, "markets"],
  [/^select "country", "market_id" from "market_countries"/, "markets' countries"],
  // The order limits (orders/limits.ts), kept in memory too: read once per process, by its first
  // placement or the hold sweeper's first run, whichever comes first. Not counted.
  [/^select .* from "order_limit_settings"/, "order limits"],
];
const kinds = (statements: string[]) =>
  statements
    .map((q) => KINDS.find(([pattern]) => pattern.test(q.trim()))?.[1] ?? q.slice(0, 60))
    .filter((kind) => kind !== "order limits");

beforeAll(async () => {
  const zone = await flatUsShipping(t.app, admin, 9.95);
  expect(zone.statusCode, zone.body).toBe(201);
  standardId = zone.json().methods[0].id;
  const rate = await texasSalesTax(t.app, admin, 6.25);
  expect(rate.statusCode, rate.body).toBe(201);
});

const part = () =>
  insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1, availableQuantity: 50 });

/** A new customer whose orders go to their address book's default (as the memory decides them). */
async function customer(app = t): Promise<TestAccount> {
  const me = await signUp(app.app);
  const saved = await app.app.inject({
    method: "POST",
    url: "/api/user/addresses",
    headers: { cookie: me.cookie },
    payload: { ...TEST_SHIP_TO, isDefault: true },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  return me;
}

test("a five-line cart checkout with shipping and tax is 4 statements, the session included", async () => {
  const me = await signUp(t.app);
  const address = await call(me, "POST", "/api/user/addresses", AUSTIN_ADDRESS);
  expect(address.statusCode, address.body).toBe(201);
  /** Five parts in the cart, quoted, then checked out: the checkout's statements. */
  const checkout = async () => {
    const parts = await Promise.all(Array.from({ length: 5 }, part));
    const merged = await call(me, "POST", "/api/cart/merge", {
      items: parts.map((p) => ({ productId: p.id, qty: 1 })),
    });
    expect(merged.statusCode, merged.body).toBeLessThan(300);
    const quote = await call(me, "POST", "/api/cart/quote", {
      addressId: address.json().id,
      shippingMethodId: standardId,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().tax).toBeGreaterThan(0);
    let placed: Awaited<ReturnType<typeof call>> | undefined;
    const statements = await statementsDuring(async () => {
      placed = await call(me, "POST", "/api/checkout", {
        addressId: address.json().id,
        shippingMethodId: standardId,
        expectedTotal: quote.json().total,
      });
    });
    expect(placed!.statusCode, placed!.body).toBe(201);
    expect(placed!.json().order.items).toHaveLength(5);
    return statements;
  };
  // The address book's change reaches the change bus some time after its write answered, and
  // forgets the countries the quote kept: a checkout before it is heard reads them once more
  // (the one-product order below counts that read). Check out again until one comes after it
  // (the notice arrives within moments: at most three carts).
  let carts = 1;
  let statements = await checkout();
  while (carts < 3 && kinds(statements).includes("their countries")) {
    carts++;
    statements = await checkout();
  }
  // The session (a later cart's may come from memory, kept by the first); the cart's products
  // (the gates it waits at); the read; the write, which takes the stock, empties the cart,
  // counts the placement and queues the email. No transaction.
  const counted = kinds(statements).filter((k) => carts === 1 || k !== "session");
  expect(counted, shown(statements)).toEqual(
    ["session", "gates", "read", "write"].filter((k) => carts === 1 || k !== "session"),
  );
});

/** The statements of one order of a new part by `me`, which must be placed. */
async function orderStatements(me: TestAccount): Promise<string[]> {
  const p = await part();
  let placed: Awaited<ReturnType<typeof call>> | undefined;
  const statements = await statementsDuring(async () => {
    placed = await call(me, "POST", "/api/orders", {
      productId: p.id,
      orderQty: 2,
      phonrNo: "5550100",
      Address: "1 Dock Road",
    });
  });
  expect(placed!.statusCode, placed!.body).toBe(201);
  return statements;
}

test("a one-product order is 3 statements, the session included", async () => {
  const statements = await orderStatements(await customer());
  // The session; the customer's delivery countries, read once since they saved their address
  // (the market the order prices in; their next order reads none: below); the read; the write,
  // which takes the stock, counts the placement and queues the email. No transaction.
  expect(kinds(statements), shown(statements)).toEqual([
    "session",
    "their countries",
    "read",
    "write",
  ]);
});

test("an order moments after another is 2 statements: the caller from memory, the session checked in the read", async () => {
  const me = await customer();
  const order = () => orderStatements(me);
  // The first reads the session (and keeps it) and the customer's countries. Until the catalog
  // channel's listener hears (it keeps nothing before that) and the sign-up's and the address
  // book's own notifications have cleared what they clear, a later one may read either again:
  // order until one reads neither.
  expect(kinds(await order())[0]).toBe("session");
  let statements: string[];
  do statements = await order();
  while (["session", "their countries"].includes(kinds(statements)[0] ?? ""));
  // The read asks whether the session is still live and its user still a customer.
  expect(kinds(statements), shown(statements)).toEqual(["read", "write"]);
  expect(statements[0]).toMatch(/from session s join "user" u on u\.id = s\.user_id/);
});

test("an order of a part this process has read, by a customer it knows, is the write alone: decided from memory", async () => {
  const [me, other] = [await customer(), await customer()];
  // Both parts made first: a new product moves the facts' version on, which empties the memory.
  const [p, q] = [await part(), await part()];
  const orderOf = async (who: TestAccount, productId: string) => {
    const res = await call(who, "POST", "/api/orders", {
      productId,
      orderQty: 2,
      phonrNo: "5550100",
      Address: "1 Dock Road",
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  await orderOf(other, p.id); // the process reads the part
  await orderOf(me, q.id); // and the customer
  // The address book's notification may be heard after that order kept the customer's
  // countries, and forget them: order again until one comes after it.
  let statements: string[];
  do statements = await statementsDuring(() => orderOf(me, p.id));
  while (kinds(statements).includes("their countries"));
  // The write checks what the order was decided on (docs/decisions/011-checkout-workflow.md,
  // "Decided from memory"); the session may come from memory too.
  expect(
    kinds(statements).filter((k) => k !== "session"),
    shown(statements),
  ).toEqual(["write"]);
});

test("a cart checkout whose lines have vehicles is still 4 statements", async () => {
  const me = await customer();
  const db = t.database.db;
  const { choice: civic } = await insertVehicle(db, "Honda", "Civic", [2018]);
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
  const statements = await statementsDuring(async () => {
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
  // The lines' vehicles are named in the read: no statement of their own.
  expect(kinds(statements), shown(statements)).toEqual(["session", "gates", "read", "write"]);
});

test("an unverified account whose holds are capped is placed in the locked transaction, without an unlocked read first", async () => {
  const capped = await createTestApp(
    { HOLD_NEW_CUSTOMER_SHARE: "0.2" },
    { seed: shipsToTestAddress },
  );
  try {
    const me = await customer(capped);
    const p = await insertProduct(capped.database.db, { minimumOrder: 1, availableQuantity: 50 });
    const seen: string[] = [];
    let placed: Awaited<ReturnType<typeof call>> | undefined;
    await watchQueries(
      capped.database.pool,
      (query) => seen.push(query.text.replace(/\s+/g, " ")),
      async () => {
        placed = await injectAs(capped.app, me, "POST", "/api/orders", {
          productId: p.id,
          orderQty: 1,
          phonrNo: "5550100",
          Address: "1 Dock Road",
        });
      },
    );
    expect(placed!.statusCode, placed!.body).toBe(201);
    // The cap locks the product rows before the read, so two such accounts cannot both see the
    // room left: that needs the customer's lock and a transaction.
    // (This process's first request also reads the markets, and the customer's countries.)
    expect(kinds(seen).slice(0, 8), shown(seen)).toEqual([
      "session",
      "their countries",
      "markets",
      "markets' countries",
      "begin",
      "customer locked", // and the placement counted
      "products locked",
      "read",
    ]);
  } finally {
    await capped.close();
  }
});

test("one customer's orders sent at once are placed one after another: each written once, none under the lock", async () => {
  const me = await customer();
  const parts = await Promise.all(Array.from({ length: 4 }, part));
  await orderStatements(me); // the process knows the customer
  const answers: number[] = [];
  const statements = await statementsDuring(() =>
    Promise.all(
      parts.map(async (p) => {
        const res = await call(me, "POST", "/api/orders", {
          productId: p.id,
          orderQty: 2,
          phonrNo: "5550100",
          Address: "1 Dock Road",
        });
        answers.push(res.statusCode);
      }),
    ),
  );
  expect(answers).toEqual([201, 201, 201, 201]);
  // At once, each would be decided on the customer as they were before the others wrote: all but
  // the first refused at the write, read again, and placed in the locked transaction.
  const seen = kinds(statements);
  expect(
    seen.filter((k) => k === "write"),
    shown(statements),
  ).toHaveLength(4);
  expect(seen, shown(statements)).not.toContain("begin");
});
