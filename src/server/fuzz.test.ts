import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../tests/support/accounts";
import { insertProduct } from "../../tests/support/factories";
import { createTestApp, type TestApp } from "../../tests/support/test-app";

/**
 * Property-based fuzzing: thousands of malformed or random bodies, queries and path parameters
 * against every API route, as anonymous, customer and admin. Every answer must be a 2xx or a
 * 4xx with the `{ error, message }` shape, never a 5xx, and nothing rejected may change the data.
 */
const RUNS = 5000;

let t: TestApp;
const routes: { method: string; url: string }[] = [];
const callers: Record<"customer" | "admin", TestAccount> = {} as never;

// Tables that rejected requests must leave alone (rate_limit counts attempts by design).
const watched = ["products", "reviews", "user", "session", "account", "orders", "payments"];

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
  t = await createTestApp(
    { ADMIN_EMAILS: "fuzz-admin@example.com", AUTH_RATE_LIMIT_PER_IP: "1000000" },
    {
      onRoute: (r) => {
        for (const method of [r.method].flat()) {
          if (method !== "HEAD" && r.url.startsWith("/api") && !r.url.startsWith("/api/docs")) {
            routes.push({ method, url: r.url });
          }
        }
      },
    },
  );
  callers.customer = await signUp(t.app, { email: "fuzz-customer@example.com" });
  callers.admin = await signUp(t.app, { email: "fuzz-admin@example.com" });
  await insertProduct(t.database.db);
});
afterAll(() => t.close());

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
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
      fc.boolean(),
      fc.constant(null),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  ),
);
const body = fc.oneof(
  jsonValue.map((v) => ({ payload: JSON.stringify(v), type: "application/json" })),
  text.map((s) => ({ payload: s, type: "application/json" })), // malformed JSON
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
        // Random input must never be accepted by anything that writes.
        expect(route.method, `${route.method} ${path} accepted ${r.body.payload}`).toBe("GET");
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
