import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MAX_ORDER_QTY } from "../contract/orders";
import { signUp, type TestAccount } from "../../tests/support/accounts";
import { insertProduct } from "../../tests/support/factories";
import { testAppWithAdmin } from "../../tests/support/store";
import type { TestApp } from "../../tests/support/test-app";
import {
  orderToTestAddress,
  placeTestOrder,
  shipsToTestAddress,
} from "../../tests/support/destination";
import { user } from "./users/tables";
import { MAX_CENTS } from "./money";

/**
 * Property-based fuzzing: thousands of malformed or random bodies, queries and path parameters
 * against every API route, as anonymous, customer and admin. Every answer must be a 2xx or a
 * 4xx with the `{ error, message }` shape, never a 5xx, and nothing rejected may change the data.
 * The inputs include control characters, numbers at the limits of 32- and 64-bit integers and
 * doubles, and bodies nested thousands deep; after them, orders whose totals pass the database's
 * integer, and customers removed while they use the store.
 */
const RUNS = 5000;

let t: TestApp;
const routes: { method: string; url: string }[] = [];
const callers: Record<"customer" | "admin", TestAccount> = {} as never;

// Tables that rejected requests must leave alone (rate_limit counts attempts by design).
const watched = [
  "products",
  "reviews",
  "user",
  "session",
  "account",
  "orders",
  "payments",
  "cart_items",
];

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of watched) {
    const rows = await t.database.db.execute(
      sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h,
                      count(*) as n from "${table}" t`),
    );
    parts.push(`${table}:${rows.rows[0]?.n}:${rows.rows[0]?.h}`);
  }
  return parts.join(" ");
}

beforeAll(async () => {
  ({ t, admin: callers.admin } = await testAppWithAdmin(
    "fuzz-admin@example.com",
    {
      AUTH_RATE_LIMIT_PER_IP: "1000000",
      // Orders up to the database's integer: the per-account hold limits would refuse them first.
      HOLD_MAX_SHARE: "1",
      HOLD_MAX_VALUE: "1000000000",
    },
    {
      seed: shipsToTestAddress,
      onRoute: (r) => {
        for (const method of [r.method].flat()) {
          if (method !== "HEAD" && r.url.startsWith("/api") && !r.url.startsWith("/api/docs")) {
            routes.push({ method, url: r.url });
          }
        }
      },
    },
  ));
  callers.customer = await signUp(t.app, { email: "fuzz-customer@example.com" });
  await insertProduct(t.database.db);
});
afterAll(() => t.close());

/** Control characters (NUL first among them), alone or inside ordinary text. */
const controlCharacter = fc.oneof(
  fc.constantFrom("\u0000", "\u0001", "\u0008", "\u001b", "\u007f", "\u0085", "\t", "\n", "\r"),
  fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
);
/** Numbers at the edges of int32, int64 (as JSON numbers and as text) and doubles. */
const limitNumber = fc.constantFrom(
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 63,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  -0,
);
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc
    .tuple(fc.string({ maxLength: 20 }), controlCharacter, fc.string({ maxLength: 20 }))
    .map(([a, c, b]) => a + c + b),
  limitNumber.map(String),
  fc.constantFrom("9223372036854775808", "-2147483649", "99999999999999999999999"),
  fc.constantFrom(
    "",
    " ",
    "-1",
    "0",
    "1e309",
    "NaN",
    "null",
    "true",
    "00000000-0000-4000-8000-000000000000",
    "' or 1=1 --",
    "<script>alert(1)</script>",
    "%00",
    "..%2F..%2Fetc%2Fpasswd",
    "a@b.co",
  ),
  fc.string({ minLength: 300, maxLength: 5000 }),
);
const jsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(
    fc.constantFrom(
      "productId",
      "orderQty",
      "phonrNo",
      "Address",
      "shipTo",
      "addressId",
      "orderId",
      "transactionId",
      "ratings",
      "descreption",
      "email",
      "password",
      "name",
      "price",
      "status",
      "clientSecret",
      "number",
      "expMonth",
      "expYear",
      "cvc",
      "education",
      "address",
      "phoneNo",
      "linkedIn",
      "minimumOrder",
      "availableQuantity",
      "warranty",
      "shortDescription",
      "img",
    ),
    fc.oneof(
      text,
      fc.integer(),
      fc.double(),
      limitNumber,
      fc.boolean(),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  ),
);
/** Arrays or objects nested up to 100,000 deep (200 KB, under the body limit). */
const deepJson = fc
  .record({ depth: fc.constantFrom(65, 1000, 10_000, 40_000, 100_000), array: fc.boolean() })
  .map(({ depth, array }) =>
    array ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth),
  );
const body = fc.oneof(
  jsonValue.map((v) => ({ payload: JSON.stringify(v), type: "application/json" })),
  text.map((s) => ({ payload: s, type: "application/json" })), // malformed JSON
  deepJson.map((s) => ({
    payload: s,
    type: "application/json",
    // A failure names the depth rather than printing 200 KB of brackets.
    [fc.toStringMethod]: () => `deep JSON of ${s.length} characters`,
  })),
  text.map((s) => ({ payload: s, type: "text/plain" })),
  text.map((s) => ({
    payload: `a=${encodeURIComponent(s)}`,
    type: "application/x-www-form-urlencoded",
  })),
  fc.constant({ payload: undefined, type: undefined }),
);
const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom("limit", "offset", "sort", "q", "status", "orderEmail"),
    fc.string({ maxLength: 8 }),
  ),
  text,
  { maxKeys: 4 },
);

const request = fc.record({
  route: fc.nat(),
  caller: fc.constantFrom("anonymous", "customer", "admin"),
  params: fc.array(text, { minLength: 3, maxLength: 3 }),
  query,
  body,
  unknownPath: fc.option(text, { freq: 10 }),
});

test(`${RUNS} random requests: never a 5xx, errors in shape, rejected requests change nothing`, async () => {
  const before = await snapshot();
  const counts = { total: 0, "2xx": 0, "4xx": 0 };
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const route = routes[r.route % routes.length]!;
      let i = 0;
      const path =
        r.unknownPath !== null
          ? `/api/${encodeURIComponent(r.unknownPath)}/x`
          : route.url.replace(/:\w+|\*/g, (m) =>
              m === "*" ? "sign-in/email" : encodeURIComponent(r.params[i++] ?? ""),
            );
      const search = new URLSearchParams(r.query).toString();
      const res = await t.app.inject({
        method: route.method as "GET",
        url: search ? `${path}?${search}` : path,
        payload: r.body.payload,
        headers: {
          ...(r.body.type ? { "content-type": r.body.type } : {}),
          ...(r.caller === "anonymous" ? {} : { cookie: callers[r.caller].cookie }),
        },
      });
      counts.total += 1;
      expect(res.statusCode, `${route.method} ${path}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode >= 400) {
        counts["4xx"] += 1;
        expect(res.json()).toMatchObject({
          error: expect.any(String),
          message: expect.any(String),
        });
      } else {
        counts["2xx"] += 1;
        // Random input must never be accepted by anything that writes. A DELETE of something
        // that is not there (a part not in the cart) is a no-op, as HTTP's DELETE is idempotent:
        // that it changed nothing is checked with every other table at the end.
        if (route.method !== "DELETE") {
          expect(route.method, `${route.method} ${path} accepted ${r.body.payload}`).toBe("GET");
        }
      }
    }),
    { numRuns: RUNS },
  );
  console.log(
    `fuzzing: ${counts.total} requests over ${routes.length} routes: ${counts["4xx"]} rejected ` +
      `with {error, message}, ${counts["2xx"]} harmless reads, 0 server errors`,
  );
  expect(await snapshot()).toBe(before);
}, 300_000);

/** Every answer of the API: below 500, and a rejection in the `{ error, message }` shape. */
function expectAnswered(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(JSON.parse(res.body), what).toMatchObject({
      error: expect.any(String),
      message: expect.any(String),
    });
  }
}

test("orders at the limits of quantity and price: a total past the database's integer is a 422", async () => {
  // 999,999.99 a piece, plenty in stock: 22 or more pass 2^31 - 1 cents.
  const product = await insertProduct(t.database.db, {
    priceCents: 99_999_999,
    availableQuantity: 10_000_000,
    minimumOrder: 1,
  });
  const quantity = fc.oneof(
    fc.integer({ min: 1, max: MAX_ORDER_QTY }),
    fc.constantFrom(21, 22, MAX_ORDER_QTY, MAX_ORDER_QTY + 1),
    limitNumber,
  );
  const counts = { placed: 0, tooLarge: 0, refused: 0 };
  await fc.assert(
    fc.asyncProperty(quantity, async (orderQty) => {
      const res = await placeTestOrder(t.app, callers.customer, product.id, orderQty, "1 Main St");
      expectAnswered(res, `orderQty ${orderQty}`);
      if (res.statusCode === 201) {
        counts.placed += 1;
        const order = res.json().order as { _id: string; total: number };
        expect(order.total * 100).toBeLessThanOrEqual(MAX_CENTS);
        // Gone again, so the next order of this product is not a duplicate.
        const deleted = await t.app.inject({
          method: "DELETE",
          url: `/api/orders/${order._id}`,
          headers: { cookie: callers.customer.cookie },
        });
        expect(deleted.statusCode).toBe(200);
      } else if (res.statusCode === 422) {
        counts.tooLarge += 1;
        expect(orderQty * 99_999_999).toBeGreaterThan(MAX_CENTS);
      } else {
        counts.refused += 1;
      }
    }),
    { numRuns: 300 },
  );
  console.log(
    `orders at the limits: ${counts.placed} placed, ${counts.tooLarge} too large (422), ` +
      `${counts.refused} refused by validation, 0 server errors`,
  );
  expect(counts.tooLarge).toBeGreaterThan(0);
}, 120_000);

test("customers removed while they sign in, order, review and edit: never a 5xx", async () => {
  const product = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 1000 });
  const actions = {
    "sign in": (v: TestAccount) => ({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: v.email, password: v.password },
    }),
    order: (v: TestAccount) => ({
      method: "POST",
      url: "/api/orders",
      headers: { cookie: v.cookie },
      payload: orderToTestAddress(product.id, 1, "1 Main St"),
    }),
    review: (v: TestAccount) => ({
      method: "POST",
      url: "/api/reviews",
      headers: { cookie: v.cookie },
      payload: { ratings: 5, descreption: "Fits well" },
    }),
    profile: (v: TestAccount) => ({
      method: "PUT",
      url: "/api/user",
      headers: { cookie: v.cookie },
      payload: { education: "", address: "1 Main St", phoneNo: "", linkedIn: "" },
    }),
    "my orders": (v: TestAccount) => ({
      method: "GET",
      url: "/api/orders",
      headers: { cookie: v.cookie },
    }),
    session: (v: TestAccount) => ({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { cookie: v.cookie },
    }),
  } as const;
  const statuses: Record<number, number> = {};
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...(Object.keys(actions) as (keyof typeof actions)[])), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.nat({ max: 6 }),
      async (chosen, removeAt) => {
        const victim = await signUp(t.app);
        const [row] = await t.database.db
          .select({ id: user.id })
          .from(user)
          .where(eq(user.email, victim.email));
        const calls = chosen.map((name) => ({
          name: name as string,
          run: () => t.app.inject(actions[name](victim) as never),
        }));
        calls.splice(Math.min(removeAt, calls.length), 0, {
          name: "removal",
          run: () =>
            t.app.inject({
              method: "DELETE",
              url: `/api/users/${row!.id}`,
              headers: { cookie: callers.admin.cookie },
            }),
        });
        const answers = await Promise.all(calls.map((c) => c.run()));
        answers.forEach((res, i) => {
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          expectAnswered(res, calls[i]!.name);
        });
        expect(answers[Math.min(removeAt, chosen.length)]!.statusCode).toBe(200);
      },
    ),
    { numRuns: 40 },
  );
  console.log(`removal races: answers by status ${JSON.stringify(statuses)}, 0 server errors`);
}, 120_000);
