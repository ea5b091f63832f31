import { randomUUID } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { signUpAdmin } from "../../../tests/support/accounts";
import { placeTestOrder } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { markOrderPaid } from "../../../tests/support/invoices";
import { multipart } from "../../../tests/support/multipart";
import { storeForTests } from "../../../tests/support/store";
import { createAnotherProcess, createTestApp, type TestApp } from "../../../tests/support/test-app";
import {
  apiKeyMessages as say,
  MAX_API_KEY_RATE,
  type ApiKey,
  type ApiKeyIssued,
  type ApiScope,
} from "../../contract/api-keys";
import { CONTROL_CHARACTERS_MESSAGE } from "../../contract/text";
import { adminAuditLog } from "../audit/tables";
import { ADMIN_2FA_MESSAGE } from "../auth/guards";
import { products } from "../catalog/tables";
import { issueInvoice } from "../invoices/issue";
import type { Guards } from "../http/request-context";
import { user } from "../users/tables";
import { acceptApiKeys } from "./bearer";
import { createApiKeyService, type ApiKeyService } from "./service";
import { apiKeys } from "./tables";

// API keys through the API (docs/api-keys.md): the admin's routes and their bad input, then
// `Authorization: Bearer` on the store's routes: scopes, refusals, the cookie ignored, revocation
// on every process, the rate limit, 2FA not asked of keys, and the audit log naming the key.

const ADMIN_EMAIL = "api-keys-admin@example.com";

const { t, admin, customer } = storeForTests({
  admin: ADMIN_EMAIL,
  shipsToTestAddress: true,
  customers: { customer: {} },
});

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
const call = (
  method: Method,
  url: string,
  opts: { payload?: object; cookie?: string; key?: string; authorization?: string } = {},
) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    payload: opts.payload,
    headers: {
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...(opts.key !== undefined ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.authorization ? { authorization: opts.authorization } : {}),
    },
  });
const asAdmin = (method: Method, url: string, payload?: object) =>
  call(method, url, { payload, cookie: admin.cookie });
const withKey = (key: string, method: Method, url: string, payload?: object) =>
  call(method, url, { payload, key });

let n = 0;
/** A new key, made on the admin's route. */
async function issue(scopes: ApiScope[], over: object = {}): Promise<ApiKeyIssued> {
  const res = await asAdmin("POST", "/api-keys", { name: `Key ${++n}`, scopes, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiKeyIssued>();
}
const bodyOf = (res: { statusCode: number; json(): unknown }) => ({
  status: res.statusCode,
  ...(res.json() as { error: string; message: string; fields?: Record<string, string> }),
});
const lastAuditOf = async (targetId: string) =>
  (
    await t.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, targetId))
      .orderBy(desc(adminAuditLog.at))
      .limit(1)
  )[0];
const via = (k: ApiKeyIssued) => `(via API key "${k.apiKey.name}", ${k.apiKey.prefix})`;

describe("the admin's routes", () => {
  test("create answers the key once; list, change, rotate and revoke answer the key without it", async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await asAdmin("POST", "/api-keys", {
      name: "  Factory ERP  ",
      scopes: ["orders:read", "catalog:read", "orders:read"],
      expiresAt,
      rateLimitPerMinute: 120,
    });
    expect(created.statusCode).toBe(201);
    const issued = created.json<ApiKeyIssued>();
    expect(issued.key).toMatch(/^pw_[0-9A-Za-z]{8}_[0-9A-Za-z]{43}$/);
    expect(issued.apiKey).toMatchObject({
      name: "Factory ERP",
      scopes: ["catalog:read", "orders:read"],
      rateLimitPerMinute: 120,
      expiresAt: new Date(expiresAt).toISOString(),
      createdByEmail: ADMIN_EMAIL,
      lastUsedAt: null,
      revokedAt: null,
      status: "active",
    });
    const id = issued.apiKey.id;

    const list = await asAdmin("GET", "/api-keys");
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(issued.key);
    expect(list.json<ApiKey[]>().find((k) => k.id === id)).toEqual(issued.apiKey);

    const changed = await asAdmin("PATCH", `/api-keys/${id}`, {
      name: "Factory ERP (stock)",
      scopes: ["inventory:write"],
      expiresAt: null,
      rateLimitPerMinute: MAX_API_KEY_RATE,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<ApiKey>()).toMatchObject({
      name: "Factory ERP (stock)",
      scopes: ["inventory:write"],
      expiresAt: null,
      rateLimitPerMinute: MAX_API_KEY_RATE,
    });
    expect((await lastAuditOf(id))!.summary).toBe(
      `Changed API key Factory ERP (${issued.apiKey.prefix}): name Factory ERP → Factory ERP (stock); scopes inventory:write; expires never; ${MAX_API_KEY_RATE} requests a minute`,
    );

    const rotated = await asAdmin("POST", `/api-keys/${id}/rotate`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json<ApiKeyIssued>();
    expect(fresh.key).not.toBe(issued.key);
    expect(fresh.apiKey).toMatchObject({ id, scopes: ["inventory:write"], status: "active" });

    const revoked = await asAdmin("POST", `/api-keys/${id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<ApiKey>()).toMatchObject({ id, status: "revoked" });
    expect(revoked.json<ApiKey>().revokedAt).not.toBeNull();
    expect((await lastAuditOf(id))!).toMatchObject({
      action: "api-key.revoke",
      actorEmail: ADMIN_EMAIL,
      summary: `Revoked API key Factory ERP (stock) (${fresh.apiKey.prefix})`,
    });
    // Kept in the list, for the audit trail.
    const after = (await asAdmin("GET", "/api-keys")).json<ApiKey[]>();
    expect(after.find((k) => k.id === id)?.status).toBe("revoked");
  });

  test.each([
    ["no body fields", {}, "name"],
    ["an empty name", { name: "  ", scopes: ["orders:read"] }, say.name],
    ["a name of 61 characters", { name: "x".repeat(61), scopes: ["orders:read"] }, say.name],
    [
      "a name with a control character",
      { name: "ERP\u0007", scopes: ["orders:read"] },
      CONTROL_CHARACTERS_MESSAGE,
    ],
    ["a name that is no string", { name: 12, scopes: ["orders:read"] }, say.name],
    ["no scope", { name: "ERP", scopes: [] }, say.scopes],
    ["an unknown scope", { name: "ERP", scopes: ["catalog:delete"] }, say.scope],
    ["scopes that are no list", { name: "ERP", scopes: "orders:read" }, say.scopes],
    [
      "a rate limit of 0",
      { name: "ERP", scopes: ["orders:read"], rateLimitPerMinute: 0 },
      say.rate,
    ],
    [
      "a rate limit too high",
      { name: "ERP", scopes: ["orders:read"], rateLimitPerMinute: MAX_API_KEY_RATE + 1 },
      say.rate,
    ],
    [
      "a rate limit with a fraction",
      { name: "ERP", scopes: ["orders:read"], rateLimitPerMinute: 1.5 },
      say.rate,
    ],
    [
      "a rate limit as text",
      { name: "ERP", scopes: ["orders:read"], rateLimitPerMinute: "600" },
      say.rate,
    ],
    [
      "an expiry that is no date",
      { name: "ERP", scopes: ["orders:read"], expiresAt: "tomorrow" },
      say.expiry,
    ],
    [
      "an expiry in the past",
      { name: "ERP", scopes: ["orders:read"], expiresAt: "2020-01-01T00:00:00Z" },
      say.expiryPast,
    ],
    ["a field the API does not know", { name: "ERP", scopes: ["orders:read"], secret: "mine" }, ""],
  ])("creating with %s is 400, with a clear message", async (_, payload, message) => {
    const res = await asAdmin("POST", "/api-keys", payload);
    const body = bodyOf(res);
    expect(body.status).toBe(400);
    expect(body.error).toBe("validation");
    if (message === "name") expect(body.fields?.name).toBeDefined();
    else if (message) expect(JSON.stringify(body)).toContain(message);
  });

  test("changing with nothing, or a malformed id, is 400; an unknown key 404; revoked twice 409", async () => {
    const { apiKey } = await issue(["orders:read"]);
    expect(bodyOf(await asAdmin("PATCH", `/api-keys/${apiKey.id}`, {}))).toMatchObject({
      status: 400,
      message: expect.stringContaining(say.change),
    });
    expect(
      bodyOf(await asAdmin("PATCH", `/api-keys/${apiKey.id}`, { scopes: ["nope"] })),
    ).toMatchObject({
      status: 400,
    });
    for (const url of [
      "/api-keys/not-a-uuid",
      "/api-keys/not-a-uuid/rotate",
      "/api-keys/1/revoke",
    ]) {
      const res = await call(url.endsWith("a-uuid") ? "PATCH" : "POST", url, {
        cookie: admin.cookie,
        payload: url.endsWith("a-uuid") ? { name: "X" } : undefined,
      });
      expect(bodyOf(res), url).toMatchObject({
        status: 400,
        message: expect.stringContaining(say.id),
      });
    }
    const unknown = randomUUID();
    expect(bodyOf(await asAdmin("POST", `/api-keys/${unknown}/rotate`))).toMatchObject({
      status: 404,
      message: say.notFound,
    });
    expect((await asAdmin("POST", `/api-keys/${apiKey.id}/revoke`)).statusCode).toBe(200);
    expect(bodyOf(await asAdmin("POST", `/api-keys/${apiKey.id}/revoke`))).toMatchObject({
      status: 409,
      message: say.revokedAlready,
    });
    expect(
      bodyOf(await asAdmin("PATCH", `/api-keys/${apiKey.id}`, { name: "Back" })),
    ).toMatchObject({
      status: 409,
      message: say.revokedNoChange,
    });
  });

  test("only admins, with their session: a visitor 401, a customer 403, a key 403", async () => {
    const { key, apiKey } = await issue([...(["catalog:read", "orders:read"] as ApiScope[])]);
    const routes: [Method, string][] = [
      ["GET", "/api-keys"],
      ["POST", "/api-keys"],
      ["PATCH", `/api-keys/${apiKey.id}`],
      ["POST", `/api-keys/${apiKey.id}/rotate`],
      ["POST", `/api-keys/${apiKey.id}/revoke`],
    ];
    for (const [method, url] of routes) {
      expect((await call(method, url)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, { cookie: customer.cookie })).statusCode).toBe(403);
      expect(bodyOf(await withKey(key, method, url))).toMatchObject({
        status: 403,
        message: say.notForKeys,
      });
    }
  });
});

describe("Authorization: Bearer", () => {
  test("a key reaches the routes of its scopes, as its admin, and nothing else", async () => {
    const { key } = await issue(["orders:read"]);
    const allowed = await withKey(key, "GET", "/orders/all");
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(bodyOf(await withKey(key, "POST", "/products", {}))).toEqual({
      status: 403,
      error: "forbidden",
      message: "This API key does not have the catalog:write scope",
    });
    expect(bodyOf(await withKey(key, "GET", "/products"))).toMatchObject({
      status: 403,
      message: say.needsOneOf(["catalog:read"]),
    });
    // Routes no key may call: an admin's own screens, a customer's, public ones without a scope,
    // sign-in and the keys themselves.
    for (const [method, url] of [
      ["GET", "/audit"],
      ["GET", "/shipping-zones"],
      ["GET", "/cart"],
      ["POST", "/orders"],
      ["GET", "/orders"],
      ["GET", "/user"],
      ["GET", "/health"],
      ["GET", "/reviews"],
      ["POST", "/auth/sign-out"],
      ["PUT", `/user/admin/${customer.email}`],
    ] as [Method, string][]) {
      expect(bodyOf(await withKey(key, method, url)), `${method} ${url}`).toMatchObject({
        status: 403,
        message: say.notForKeys,
      });
    }
    // A path that is no route is answered 404, as for anyone.
    expect((await withKey(key, "GET", "/no-such-route")).statusCode).toBe(404);
  });

  test("a key that is not valid, revoked or expired is 401 at once, whatever the route", async () => {
    const unknown = { status: 401, error: "unauthorized", message: say.unknown };
    for (const authorization of [
      "Bearer",
      "Bearer nonsense",
      "Bearer pw_abcdefgh_" + "x".repeat(43),
      "bearer " + "pw_".padEnd(55, "1"),
    ]) {
      const res = await call("GET", "/orders/all", { authorization });
      expect(bodyOf(res), authorization).toEqual(unknown);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="api", error="invalid_token"');
      // Public routes too: a bad key is never let through. (A path that is no route is the
      // app's not-found answer, key or not.)
      expect((await call("GET", "/products", { authorization })).statusCode).toBe(401);
      expect((await call("GET", "/no-such-route", { authorization })).statusCode).toBe(404);
    }
    const revoked = await issue(["orders:read"]);
    await asAdmin("POST", `/api-keys/${revoked.apiKey.id}/revoke`);
    expect(bodyOf(await withKey(revoked.key, "GET", "/orders/all"))).toMatchObject({
      status: 401,
      message: say.revoked,
    });
    const expired = await issue(["orders:read"]);
    await t.database.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, expired.apiKey.id));
    expect(bodyOf(await withKey(expired.key, "GET", "/orders/all"))).toMatchObject({
      status: 401,
      message: say.expired,
    });
    const rotated = await issue(["orders:read"]);
    await asAdmin("POST", `/api-keys/${rotated.apiKey.id}/rotate`);
    expect(bodyOf(await withKey(rotated.key, "GET", "/orders/all"))).toEqual(unknown);
  });

  test("a request with a key is judged by it alone: a session cookie sent along is ignored", async () => {
    const { key } = await issue(["orders:read"]);
    // The customer's cookie does not make an admin's key a customer, nor lose its scopes.
    expect((await call("GET", "/orders/all", { key, cookie: customer.cookie })).statusCode).toBe(
      200,
    );
    expect(bodyOf(await call("GET", "/cart", { key, cookie: customer.cookie }))).toMatchObject({
      status: 403,
      message: say.notForKeys,
    });
    // An admin's cookie does not widen a key's scopes.
    expect(
      bodyOf(await call("POST", "/products", { key, cookie: admin.cookie, payload: {} })),
    ).toMatchObject({ status: 403, message: say.needsOneOf(["catalog:write"]) });
    expect((await call("GET", "/audit", { key, cookie: admin.cookie })).statusCode).toBe(403);
    // A key that is not valid is refused even with a good cookie.
    expect(
      (await call("GET", "/cart", { key: "pw_nope", cookie: customer.cookie })).statusCode,
    ).toBe(401);
  });

  test("a revoked key is refused at once by every process, not only the one that revoked it", async () => {
    const other = await createAnotherProcess(t);
    try {
      const { key, apiKey } = await issue(["orders:read"]);
      const elsewhere = () =>
        other.app.inject({
          url: "/api/orders/all",
          headers: { authorization: `Bearer ${key}` },
        });
      expect((await elsewhere()).statusCode).toBe(200);
      expect((await asAdmin("POST", `/api-keys/${apiKey.id}/revoke`)).statusCode).toBe(200);
      expect(bodyOf(await elsewhere())).toMatchObject({ status: 401, message: say.revoked });
    } finally {
      await other.close();
    }
  });

  test("a key whose admin is no longer an admin is refused", async () => {
    const id = randomUUID();
    await t.database.db
      .insert(user)
      .values({ id, name: "Second admin", email: `api-keys-${id}@example.com`, role: "admin" });
    const { key } = await createApiKeyService(t.database.db).create(
      { id, email: `api-keys-${id}@example.com` },
      { name: `Second admin's key ${id}`, scopes: ["orders:read"] },
    );
    expect((await withKey(key, "GET", "/orders/all")).statusCode).toBe(200);
    await t.database.db.update(user).set({ role: "user" }).where(eq(user.id, id));
    expect(bodyOf(await withKey(key, "GET", "/orders/all"))).toMatchObject({
      status: 401,
      message: say.creatorGone,
    });
  });

  test("the key's own rate limit a minute: 429 with Retry-After and how long to wait", async () => {
    const { key, apiKey } = await issue(["orders:read"], { rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++)
      expect((await withKey(key, "GET", "/orders/all")).statusCode).toBe(200);
    const res = await withKey(key, "GET", "/orders/all");
    const retry = Number(res.headers["retry-after"]);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(bodyOf(res)).toEqual({
      status: 429,
      error: "too_many_requests",
      message: say.tooMany(3, retry),
    });
    // The admin raises it: the next request goes through.
    await asAdmin("PATCH", `/api-keys/${apiKey.id}`, { rateLimitPerMinute: 100 });
    expect((await withKey(key, "GET", "/orders/all")).statusCode).toBe(200);
    // Its last use is in the list.
    const listed = (await asAdmin("GET", "/api-keys"))
      .json<ApiKey[]>()
      .find((k) => k.id === apiKey.id);
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  test("a product change needs the scope of each kind of field it sends", async () => {
    const product = await insertProduct(t.database.db, { availableQuantity: 10 });
    const stock = await issue(["inventory:write"]);
    const both = await issue(["inventory:write", "prices:write"]);
    const catalog = await issue(["catalog:write"]);
    const url = `/products/${product.id}`;
    const setStock = { availableQuantity: 25, availableQuantityWas: 10 };
    const ok = await withKey(stock.key, "PATCH", url, setStock);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(bodyOf(await withKey(stock.key, "PATCH", url, { price: 19.5 }))).toMatchObject({
      status: 403,
      message: say.missingScopes(["prices:write"]),
    });
    expect(
      bodyOf(
        await withKey(stock.key, "PATCH", url, {
          price: 19.5,
          availableQuantity: 30,
          availableQuantityWas: 25,
        }),
      ),
    ).toMatchObject({ status: 403, message: say.missingScopes(["prices:write"]) });
    expect(bodyOf(await withKey(catalog.key, "PATCH", url, setStock))).toMatchObject({
      status: 403,
      message: say.missingScopes(["inventory:write"]),
    });
    const priced = await withKey(both.key, "PATCH", url, {
      price: 19.5,
      availableQuantity: 30,
      availableQuantityWas: 25,
    });
    expect(priced.statusCode, priced.body).toBe(200);
    expect(
      (await withKey(catalog.key, "PATCH", url, { name: "Renamed by the ERP" })).statusCode,
    ).toBe(200);
    // A key with none of the three is refused before its body is read; a bad body is 400.
    const reader = await issue(["catalog:read"]);
    expect(bodyOf(await withKey(reader.key, "PATCH", url, { name: "" }))).toMatchObject({
      status: 403,
      message: say.needsOneOf(["catalog:write", "inventory:write", "prices:write"]),
    });
    expect((await withKey(stock.key, "PATCH", url, { availableQuantity: -1 })).statusCode).toBe(
      400,
    );
    const [row] = await t.database.db.select().from(products).where(eq(products.id, product.id));
    expect(row).toMatchObject({
      availableQuantity: 30,
      priceCents: 1950,
      name: "Renamed by the ERP",
    });
  });

  test("every change a key makes is in the audit log, naming the key", async () => {
    // catalog:write: a product added.
    const catalog = await issue(["catalog:write"]);
    const created = await withKey(catalog.key, "POST", "/products", {
      name: `ERP part ${randomUUID()}`,
      partNumber: `ERP-${randomUUID().slice(0, 8)}`,
      category: "Other",
      price: 10,
      minimumOrder: 1,
      availableQuantity: 5,
      warranty: 12,
      shortDescription: "Sent by the ERP",
      img: "/images/products/oil-filter.svg",
    });
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json<{ product: { _id: string } }>().product._id;
    expect(await lastAuditOf(productId)).toMatchObject({
      action: "product.create",
      actorEmail: ADMIN_EMAIL,
      summary: expect.stringMatching(new RegExp(`${escape(via(catalog))}$`)),
    });

    // inventory:write: its stock set.
    const stock = await issue(["inventory:write"]);
    expect(
      (
        await withKey(stock.key, "PATCH", `/products/${productId}`, {
          availableQuantity: 9,
          availableQuantityWas: 5,
        })
      ).statusCode,
    ).toBe(200);
    expect((await lastAuditOf(productId))!.summary.endsWith(via(stock))).toBe(true);

    // prices:write: a price list made.
    const prices = await issue(["prices:write"]);
    const list = await withKey(prices.key, "POST", "/price-lists", { name: `ERP list ${n}` });
    expect(list.statusCode, list.body).toBe(201);
    expect((await lastAuditOf(list.json<{ id: string }>().id))!.summary.endsWith(via(prices))).toBe(
      true,
    );

    // orders:write: a customer's order cancelled, and a bank payment recorded on an invoice.
    const orders = await issue(["orders:write"]);
    const orderId = await customerOrder();
    const cancelled = await withKey(orders.key, "PATCH", `/orders/${orderId}/status`, {
      status: "cancelled",
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await lastAuditOf(orderId)).toMatchObject({
      action: "order.cancel",
      summary: expect.stringMatching(new RegExp(`${escape(via(orders))}$`)),
    });
    const invoiceId = await onAccountInvoice();
    const paid = await withKey(orders.key, "POST", `/invoices/${invoiceId}/payments`, {
      amount: 0.01,
      paidOn: new Date().toISOString().slice(0, 10),
      reference: "ERP-1",
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await lastAuditOf(invoiceId))!.summary.endsWith(via(orders))).toBe(true);

    // An ACES import a key uploads and starts: its job (on the job queue) names the key too.
    const body = multipart({
      data: Buffer.from(
        '<ACES version="4.2"><Header><BrandAAIAID>KEYS</BrandAAIAID></Header></ACES>',
      ),
      filename: "keys.xml",
      type: "application/xml",
      field: "file",
    });
    const uploaded = await t.app.inject({
      method: "POST",
      url: "/api/imports/aces",
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${catalog.key}` },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const importId = uploaded.json<{ id: string }>().id;
    expect((await withKey(catalog.key, "POST", `/imports/${importId}/start`)).statusCode).toBe(202);
    const audit = await vi.waitFor(
      async () => {
        const row = await lastAuditOf(importId);
        if (!row) throw new Error("the import has not finished");
        return row;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(audit).toMatchObject({ action: "catalog.import-aces", actorEmail: ADMIN_EMAIL });
    expect(audit.summary.endsWith(via(catalog))).toBe(true);

    // Made with the admin's own session, a row names no key.
    const own = await asAdmin("POST", "/price-lists", { name: `Own list ${n}` });
    expect((await lastAuditOf(own.json<{ id: string }>().id))!.summary).not.toContain("API key");
  });
});

test("the OpenAPI document names the bearer scheme and each route's scopes", async () => {
  const doc = (await t.app.inject({ url: "/api/docs/json" })).json<{
    components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
    paths: Record<string, Record<string, Record<string, unknown>>>;
  }>();
  expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  const ordersAll = doc.paths["/api/orders/all"]!.get!;
  expect(ordersAll["x-api-key-scopes"]).toEqual(["orders:read"]);
  expect(ordersAll.security).toContainEqual({ apiKey: [] });
  const productPatch = doc.paths["/api/products/{id}"]!.patch!;
  expect(productPatch["x-api-key-scopes"]).toEqual([
    "catalog:write",
    "inventory:write",
    "prices:write",
  ]);
  expect(productPatch.description).toContain("`price` and `breaks` need prices:write");
  expect(doc.paths["/api/cart"]!.get!["x-api-key-scopes"]).toBeUndefined();
  expect(doc.paths["/api/api-keys"]!.get!["x-api-key-scopes"]).toBeUndefined();
});

describe("admins' two-factor rule", () => {
  let t2: TestApp;
  beforeAll(async () => {
    t2 = await createTestApp({
      ADMIN_EMAILS: "api-keys-2fa@example.com",
      ADMIN_2FA_REQUIRED: "true",
    });
  });
  afterAll(() => t2.close());

  test("asks the admin's session for a second factor, never a key (keys are not people)", async () => {
    const person = await signUpAdmin(t2, { email: "api-keys-2fa@example.com" });
    const asPerson = await t2.app.inject({
      url: "/api/orders/all",
      headers: { cookie: person.cookie },
    });
    expect(bodyOf(asPerson)).toMatchObject({ status: 403, message: ADMIN_2FA_MESSAGE });
    const [row] = await t2.database.db
      .select({ id: user.id, email: user.email })
      .from(user)
      .where(eq(user.email, "api-keys-2fa@example.com"));
    const { key } = await createApiKeyService(t2.database.db).create(row!, {
      name: "2FA-free",
      scopes: ["orders:read"],
    });
    const asKey = await t2.app.inject({
      url: "/api/orders/all",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(asKey.statusCode, asKey.body).toBe(200);
  });
});

test("a route for people cannot declare a scope: the server refuses to start", async () => {
  const app = Fastify();
  const guard = async () => {};
  const guards = {
    signedIn: guard,
    customerOnly: async () => {},
    customerPlacing: async () => {},
    customerOrAdmin: async () => {},
    adminOnly: async () => {},
  } as unknown as Guards;
  acceptApiKeys(app, { keys: {} as ApiKeyService, guards });
  app.get("/fine", { onRequest: guards.adminOnly, config: { apiScope: "orders:read" } }, () => "");
  app.get("/public", { config: { apiScope: "catalog:read" } }, () => "");
  let refused: unknown;
  try {
    app.get("/mine", { onRequest: guards.signedIn, config: { apiScope: "orders:read" } }, () => "");
    await app.ready();
  } catch (err) {
    refused = err;
  } finally {
    await app.close();
  }
  expect(String(refused)).toContain("GET /mine: a route for people cannot declare an API scope");
});

/** A regular expression's text matching `s` literally. */
function escape(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A customer's new unpaid order of one fresh part, to the test address. */
async function customerOrder(): Promise<string> {
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 100 });
  const res = await placeTestOrder(t.app, customer, p.id, 1);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ order: { _id: string } }>().order._id;
}

/** An invoice on account (net 30) of a customer's order, issued straight in the database. */
async function onAccountInvoice(): Promise<string> {
  const orderId = await customerOrder();
  const seller = { name: "Key Seller", address: ["1 Road"], taxId: null, email: null };
  return t.database.db.transaction(async (tx) => {
    await markOrderPaid(tx, orderId);
    return (await issueInvoice(tx, orderId, seller, new Date(), "net30")).id;
  });
}
