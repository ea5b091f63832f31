import { count, eq } from "drizzle-orm";
import Fastify, { type InjectOptions } from "fastify";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { signUp } from "../../tests/support/accounts";
import { insertProduct } from "../../tests/support/factories";
import { storeForTests } from "../../tests/support/store";
import { sessionHeaders } from "../../tests/support/requests";
import { placeTestOrder } from "../../tests/support/destination";
import { orders } from "./orders/tables";
import { user } from "./users/tables";
import { errorHandler } from "./error-handler";

/**
 * Input that used to reach PostgreSQL or the stack and come back as a 500 (issue 14): control
 * characters, totals past the database's integer, JSON nested 40,000 deep, an account removed
 * in the middle of a request. Each answers a 4xx (or a 503 for a busy database) instead.
 */

const { t, call, admin, customer } = storeForTests({
  admin: "hostile-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "hostile-customer@example.com" },
  env: {
    // Orders up to the database's integer: the per-account hold limits would refuse them first.
    HOLD_MAX_SHARE: "1",
    HOLD_MAX_VALUE: "1000000000",
  },
});

const idOf = async (email: string) =>
  (await t.database.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]!.id;

describe("control characters", () => {
  const NUL = "\u0000";
  const cases: [string, () => Promise<InjectOptions>][] = [
    ["product search (anonymous)", async () => ({ method: "GET", url: "/api/products?q=a%00" })],
    [
      "sign-in email (anonymous)",
      async () => ({
        method: "POST",
        url: "/api/auth/sign-in/email",
        payload: { email: `a${NUL}@example.com`, password: "secret123" },
      }),
    ],
    [
      "sign-up name (anonymous)",
      async () => ({
        method: "POST",
        url: "/api/auth/sign-up/email",
        payload: { email: "nul@example.com", password: "secret123", name: `N${NUL}` },
      }),
    ],
    [
      "review text",
      async () => ({
        method: "POST",
        url: "/api/reviews",
        headers: sessionHeaders(customer),
        payload: { ratings: 5, descreption: `good${NUL}` },
      }),
    ],
    [
      "order address",
      async () => ({
        method: "POST",
        url: "/api/orders",
        headers: sessionHeaders(customer),
        payload: {
          productId: (await insertProduct(t.database.db)).id,
          orderQty: 2,
          phonrNo: "0123456789",
          Address: `1 Main St${NUL}`,
        },
      }),
    ],
    [
      "profile address",
      async () => ({
        method: "PUT",
        url: "/api/user",
        headers: sessionHeaders(customer),
        payload: { education: "", address: `x${NUL}`, phoneNo: "", linkedIn: "" },
      }),
    ],
    [
      "own orders by email",
      async () => ({
        method: "GET",
        url: "/api/orders?orderEmail=a%00",
        headers: sessionHeaders(customer),
      }),
    ],
    [
      "admin check by email",
      async () => ({
        method: "GET",
        url: "/api/admin/a%00%40b.co",
        headers: sessionHeaders(customer),
      }),
    ],
    [
      "admin user search",
      async () => ({ method: "GET", url: "/api/users?q=a%00", headers: sessionHeaders(admin) }),
    ],
    [
      "admin order search",
      async () => ({
        method: "GET",
        url: "/api/orders/all?q=a%00",
        headers: sessionHeaders(admin),
      }),
    ],
    [
      "new product name",
      async () => ({
        method: "POST",
        url: "/api/products",
        headers: sessionHeaders(admin),
        payload: {
          name: `Pump${NUL}`,
          price: 10,
          minimumOrder: 1,
          availableQuantity: 5,
          warranty: 12,
          shortDescription: "A pump",
          img: "/images/products/oil-filter.svg",
        },
      }),
    ],
    [
      "a single-line field refuses a tab",
      async () => ({ method: "GET", url: "/api/products?q=a%09b" }),
    ],
  ];

  test.each(cases)("%s: 400 naming the field, not a 500", async (_, request) => {
    const res = await t.app.inject(await request());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: "validation",
      message: expect.stringContaining("Must not contain control characters"),
    });
  });

  test("a review may hold line breaks and tabs, but not other control characters", async () => {
    const post = (descreption: string) =>
      call(customer, "POST", "/api/reviews", { ratings: 4, descreption });
    expect((await post("Line one\r\n\tline two")).statusCode).toBe(201);
    expect((await post("bell\u0007")).statusCode).toBe(400);
  });
});

test("an order whose total passes the database's integer is refused with 422 before the insert", async () => {
  // 999,999.99 a piece: 22 of them are 21,999,999.78, past 2^31 - 1 cents.
  const product = await insertProduct(t.database.db, {
    priceCents: 99_999_999,
    availableQuantity: 100,
    minimumOrder: 1,
  });
  const place = (orderQty: number) =>
    placeTestOrder(t.app, customer, product.id, orderQty, "1 Main St");
  const res = await place(22);
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().message).toBe(
    "This order's total is too large: order fewer or split it into several orders",
  );
  const [placed] = await t.database.db.select({ n: count() }).from(orders);
  expect((await place(21)).statusCode).toBe(201); // 20,999,999.79: still fits
  const [after] = await t.database.db.select({ n: count() }).from(orders);
  expect(after!.n).toBe(placed!.n + 1);
});

describe("JSON nesting", () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

  test.each(["/api/auth/sign-in/email", "/api/auth/sign-up/email", "/api/reviews"])(
    "40,000 levels deep to %s: 400 before parsing",
    async (url) => {
      for (const payload of [nested(40_000), "[".repeat(40_000) + "]".repeat(40_000)]) {
        const res = await t.app.inject({
          method: "POST",
          url,
          headers: { "content-type": "application/json", ...sessionHeaders(customer) },
          payload,
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toBe("The JSON body is nested too deeply (more than 64 levels)");
      }
    },
  );

  test("64 levels still parse (and then fail validation as usual)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/reviews",
      headers: { "content-type": "application/json", ...sessionHeaders(customer) },
      payload: nested(64),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("validation");
  });

  test("brackets inside strings do not count", async () => {
    // A fresh customer: one review a week each.
    const author = await signUp(t.app);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/reviews",
      headers: { "content-type": "application/json", ...sessionHeaders(author) },
      payload: JSON.stringify({ ratings: 5, descreption: `[{"\\${"[".repeat(500)}` }),
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

test("an account removed while it signs in: the same 404 a removed account gets, not a 500", async () => {
  const victim = await signUp(t.app);
  const victimId = await idOf(victim.email);
  // Hold the removal half-way (the user row locked, as removal locks it), let the sign-in reach
  // its session insert, which waits on that lock; then finish the removal.
  const removal = new pg.Client({ connectionString: t.database.url });
  await removal.connect();
  try {
    await removal.query("begin");
    await removal.query(`select 1 from "user" where id = $1 for update`, [victimId]);
    const signIn = call(null, "POST", "/api/auth/sign-in/email", {
      email: victim.email,
      password: victim.password,
    });
    await waitFor(async () => {
      const waiting = await t.database.pool.query(
        `select 1 from pg_stat_activity
          where wait_event_type = 'Lock' and query like 'insert into "session"%'`,
      );
      return waiting.rowCount! > 0;
    });
    await removal.query(`delete from "user" where id = $1`, [victimId]);
    await removal.query("commit");
    const res = await signIn;
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual({ error: "not_found", message: "Your account no longer exists" });
  } finally {
    await removal.end();
  }
});

describe("database errors a request can cause are answered, not 500s", () => {
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.get<{ Params: { code: string } }>("/fail/:code", async (req) => {
    // Shaped as node-postgres reports them, wrapped as Drizzle wraps them.
    const cause = Object.assign(new Error("database said no"), {
      code: req.params.code,
      severity: "ERROR",
      detail: req.params.code === "23503" ? 'Key (id)=(x) is not present in table "products".' : "",
    });
    throw new Error("Failed query", { cause });
  });
  afterAll(() => app.close());

  test.each([
    ["23503", 409, undefined],
    ["22021", 400, undefined],
    ["22003", 422, undefined],
    ["54001", 400, undefined],
    ["40001", 503, "1"],
    ["40P01", 503, "1"],
    ["XX000", 500, undefined],
  ])("%s answers %i", async (code, status, retryAfter) => {
    const res = await app.inject({ url: `/fail/${code}` });
    expect(res.statusCode).toBe(status);
    expect(res.headers["retry-after"]).toBe(retryAfter);
    expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the condition");
    await new Promise((r) => setImmediate(r));
  }
}
