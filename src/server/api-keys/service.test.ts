import { randomUUID } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { refusal } from "../../../tests/support/refusal";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { apiKeyMessages as say, type ApiKeyCreate } from "../../contract/api-keys";
import { adminAuditLog } from "../audit/tables";
import { user } from "../users/tables";
import { hashApiKey } from "./secret";
import { createApiKeyService, type ApiKeyService } from "./service";
import { apiKeys } from "./tables";

// The keys' rules, below the routes (docs/api-keys.md): what is stored, the check of a key by its
// prefix and hash, expiry, revocation, rotation, the creator's role, the rate limit, last use.

let db: TestDatabase;
let keys: ApiKeyService;
let admin: { id: string; email: string };

async function newAdmin(role: "admin" | "user" = "admin") {
  const id = randomUUID();
  const email = `keys-${id}@example.com`;
  await db.db.insert(user).values({ id, name: "Key admin", email, role });
  return { id, email };
}

beforeAll(async () => {
  db = await createTestDatabase();
  keys = createApiKeyService(db.db);
  admin = await newAdmin();
});
afterAll(() => db.close());

let n = 0;
const input = (over: Partial<ApiKeyCreate> = {}): ApiKeyCreate => ({
  name: `ERP ${++n}`,
  scopes: ["orders:read"],
  ...over,
});

const rowOf = async (id: string) =>
  (await db.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]!;

describe("a new key", () => {
  test("is answered whole once; the table keeps its prefix and SHA-256, never the key", async () => {
    const { apiKey, key } = await keys.create(
      admin,
      input({ scopes: ["catalog:read", "orders:read"] }),
    );
    expect(key.startsWith(`${apiKey.prefix}_`)).toBe(true);
    const row = await rowOf(apiKey.id);
    expect(row.secretHash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row).toMatchObject({
      prefix: apiKey.prefix,
      scopes: ["catalog:read", "orders:read"],
      rateLimitPerMinute: 600,
      createdBy: admin.id,
      createdByEmail: admin.email,
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(apiKey).toMatchObject({ status: "active", createdByEmail: admin.email });
    // The list never carries a secret.
    const listed = (await keys.list()).find((k) => k.id === apiKey.id)!;
    expect(JSON.stringify(listed)).not.toContain(row.secretHash);
    expect(listed).toEqual(apiKey);
    const [audit] = await db.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, apiKey.id));
    expect(audit).toMatchObject({ action: "api-key.create", actorEmail: admin.email });
    expect(audit!.summary).toContain(apiKey.prefix);
    expect(audit!.summary).not.toContain(key);
  });

  test("an expiry must be in the future, by the service's clock", async () => {
    const at = new Date("2030-06-01T12:00:00Z");
    const clocked = createApiKeyService(db.db, { now: () => at });
    expect(
      await refusal(clocked.create(admin, input({ expiresAt: "2030-06-01T12:00:00Z" }))),
    ).toEqual({ status: 400, message: say.expiryPast, fields: { expiresAt: say.expiryPast } });
    const made = await clocked.create(admin, input({ expiresAt: "2030-06-01T12:00:01Z" }));
    expect(made.apiKey.expiresAt).toBe("2030-06-01T12:00:01.000Z");
  });

  test("names are unique among keys not revoked, in any case; a revoked key's name is free", async () => {
    const first = await keys.create(admin, input({ name: "Warehouse sync" }));
    expect(await refusal(keys.create(admin, input({ name: "WAREHOUSE SYNC" })))).toMatchObject({
      status: 409,
      message: say.taken("WAREHOUSE SYNC"),
    });
    const other = await keys.create(admin, input({ name: "Warehouse two" }));
    expect(
      await refusal(keys.change(admin, other.apiKey.id, { name: "warehouse sync" })),
    ).toMatchObject({ status: 409, message: say.taken("warehouse sync") });
    await keys.revoke(admin, first.apiKey.id);
    const again = await keys.create(admin, input({ name: "Warehouse sync" }));
    expect(again.apiKey.status).toBe("active");
  });
});

describe("checking a key", () => {
  test("the holder of the whole key acts as its admin, with its scopes, marked as the key", async () => {
    const { apiKey, key } = await keys.create(admin, input({ scopes: ["prices:write"] }));
    const accepted = await keys.authenticate(key);
    expect(accepted.scopes).toEqual(["prices:write"]);
    expect(accepted.rateLimitPerMinute).toBe(600);
    expect(accepted.caller).toMatchObject({
      id: admin.id,
      email: admin.email,
      role: "admin",
      apiKey: { id: apiKey.id, name: apiKey.name, prefix: apiKey.prefix },
    });
  });

  test("a malformed key, an unknown prefix, or a known prefix with another secret: not valid", async () => {
    const { apiKey, key } = await keys.create(admin, input());
    const unknown = { status: 401, message: say.unknown, fields: undefined };
    expect(await refusal(keys.authenticate("not-a-key"))).toEqual(unknown);
    expect(await refusal(keys.authenticate(key.slice(0, -1)))).toEqual(unknown);
    expect(await refusal(keys.authenticate(`pw_zzzzzzzz_${key.slice(12)}`))).toEqual(unknown);
    const flipped = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    expect(flipped.startsWith(apiKey.prefix)).toBe(true);
    expect(await refusal(keys.authenticate(flipped))).toEqual(unknown);
  });

  test("a revoked key is refused from the revocation on", async () => {
    const { apiKey, key } = await keys.create(admin, input());
    await keys.authenticate(key);
    const revoked = await keys.revoke(admin, apiKey.id);
    expect(revoked.status).toBe("revoked");
    expect(await refusal(keys.authenticate(key))).toMatchObject({
      status: 401,
      message: say.revoked,
    });
    // Once only; and a revoked key changes no more.
    expect(await refusal(keys.revoke(admin, apiKey.id))).toMatchObject({
      status: 409,
      message: say.revokedAlready,
    });
    expect(await refusal(keys.change(admin, apiKey.id, { name: "Again" }))).toMatchObject({
      status: 409,
      message: say.revokedNoChange,
    });
    expect(await refusal(keys.rotate(admin, apiKey.id))).toMatchObject({
      status: 409,
      message: say.revokedNoChange,
    });
    // The row stays, for the audit log.
    expect((await rowOf(apiKey.id)).revokedAt).not.toBeNull();
  });

  test("an expired key is refused (the database's clock decides); a new expiry lets it in again", async () => {
    const { apiKey, key } = await keys.create(admin, input());
    await db.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, apiKey.id));
    expect(await refusal(keys.authenticate(key))).toMatchObject({
      status: 401,
      message: say.expired,
    });
    expect((await keys.list()).find((k) => k.id === apiKey.id)!.status).toBe("expired");
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const changed = await keys.change(admin, apiKey.id, { expiresAt: later });
    expect(changed.status).toBe("active");
    await expect(keys.authenticate(key)).resolves.toMatchObject({ scopes: ["orders:read"] });
    // null: never expires.
    expect((await keys.change(admin, apiKey.id, { expiresAt: null })).expiresAt).toBeNull();
  });

  test("a key whose admin is no longer one, or whose account is gone, is refused", async () => {
    const other = await newAdmin();
    const { apiKey, key } = await keys.create(other, input());
    await db.db.update(user).set({ role: "user" }).where(eq(user.id, other.id));
    const gone = { status: 401, message: say.creatorGone };
    expect(await refusal(keys.authenticate(key))).toMatchObject(gone);
    await db.db.update(user).set({ role: "admin" }).where(eq(user.id, other.id));
    await keys.authenticate(key);
    await db.db.delete(user).where(eq(user.id, other.id));
    expect(await refusal(keys.authenticate(key))).toMatchObject(gone);
    // The key stays listed, without a creator.
    const row = await rowOf(apiKey.id);
    expect(row.createdBy).toBeNull();
    expect((await keys.list()).find((k) => k.id === apiKey.id)!.createdByEmail).toBeNull();
  });
});

describe("rotation and changes", () => {
  test("rotating makes a new key (and prefix) with the same settings; the old one stops at once", async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const { apiKey, key } = await keys.create(
      admin,
      input({ scopes: ["catalog:read", "inventory:write"], rateLimitPerMinute: 42, expiresAt }),
    );
    const rotated = await keys.rotate(admin, apiKey.id);
    expect(rotated.key).not.toBe(key);
    expect(rotated.apiKey.prefix).not.toBe(apiKey.prefix);
    expect(rotated.key.startsWith(`${rotated.apiKey.prefix}_`)).toBe(true);
    expect(rotated.apiKey).toMatchObject({
      id: apiKey.id,
      name: apiKey.name,
      scopes: ["catalog:read", "inventory:write"],
      rateLimitPerMinute: 42,
      expiresAt: apiKey.expiresAt,
      status: "active",
    });
    expect(await refusal(keys.authenticate(key))).toMatchObject({
      status: 401,
      message: say.unknown,
    });
    await expect(keys.authenticate(rotated.key)).resolves.toMatchObject({ rateLimitPerMinute: 42 });
    const [audit] = await db.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, apiKey.id))
      .orderBy(desc(adminAuditLog.at))
      .limit(1);
    expect(audit).toMatchObject({
      action: "api-key.rotate",
      summary: `Rotated API key ${apiKey.name}: ${apiKey.prefix} → ${rotated.apiKey.prefix}`,
    });
  });

  test("a change of scopes or rate limit holds from the next request on", async () => {
    const { apiKey, key } = await keys.create(admin, input({ scopes: ["orders:read"] }));
    await keys.change(admin, apiKey.id, {
      scopes: ["orders:write", "orders:read"],
      rateLimitPerMinute: 7,
    });
    await expect(keys.authenticate(key)).resolves.toMatchObject({
      scopes: ["orders:read", "orders:write"],
      rateLimitPerMinute: 7,
    });
  });

  test("an unknown key is 404 to every change", async () => {
    const id = randomUUID();
    const notFound = { status: 404, message: say.notFound };
    expect(await refusal(keys.change(admin, id, { name: "X" }))).toMatchObject(notFound);
    expect(await refusal(keys.rotate(admin, id))).toMatchObject(notFound);
    expect(await refusal(keys.revoke(admin, id))).toMatchObject(notFound);
  });
});

describe("each use", () => {
  test("counts against the key's own limit a minute, and moves its last use on at most once a minute", async () => {
    const { apiKey, key } = await keys.create(admin, input({ rateLimitPerMinute: 2 }));
    const accepted = await keys.authenticate(key);
    expect((await keys.countUse(accepted)).allowed).toBe(true);
    const firstUse = (await rowOf(apiKey.id)).lastUsedAt;
    expect(firstUse).not.toBeNull();
    expect((await keys.countUse(accepted)).allowed).toBe(true);
    const third = await keys.countUse(accepted);
    expect(third.allowed).toBe(false);
    expect(third.retryAfter).toBeGreaterThanOrEqual(1);
    expect(third.retryAfter).toBeLessThanOrEqual(60);
    // Within the minute, the last use stays where the first put it.
    expect((await rowOf(apiKey.id)).lastUsedAt).toEqual(firstUse);
    // A minute on (moved back in the table), the next use moves it.
    await db.db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now() - interval '61 seconds'` })
      .where(eq(apiKeys.id, apiKey.id));
    const movedBack = (await rowOf(apiKey.id)).lastUsedAt!;
    await keys.countUse(accepted);
    expect((await rowOf(apiKey.id)).lastUsedAt!.getTime()).toBeGreaterThanOrEqual(
      movedBack.getTime() + 60_000,
    );
    // Another key has a limit of its own.
    const other = await keys.authenticate((await keys.create(admin, input())).key);
    expect((await keys.countUse(other)).allowed).toBe(true);
  });
});
