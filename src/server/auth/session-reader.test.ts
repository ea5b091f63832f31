import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { appForTests } from "../../../tests/support/store";
import { createSessionReader, stillSignedInSql, verifiedToken } from "./session-reader";

const secret = "test-secret-that-is-long-enough-0123456789";
const signed = (token: string) =>
  encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token).digest("base64")}`);

test("a cookie signed with the secret gives its token; any tampering gives nothing", () => {
  expect(verifiedToken(`a=1; better-auth.session_token=${signed("tok123")}`, secret)).toBe(
    "tok123",
  );
  expect(verifiedToken(`__Secure-better-auth.session_token=${signed("tok123")}`, secret)).toBe(
    "tok123",
  );
  expect(verifiedToken(`better-auth.session_token=${signed("tok123")}`, "another-secret")).toBe(
    undefined,
  );
  const forged = signed("tok123").replace("tok123", "tok124");
  expect(verifiedToken(`better-auth.session_token=${forged}`, secret)).toBe(undefined);
  expect(verifiedToken("better-auth.session_token=tok123", secret)).toBe(undefined);
  expect(verifiedToken("better-auth.session_token=%E0%A4%A", secret)).toBe(undefined);
  expect(verifiedToken("other=1", secret)).toBe(undefined);
});

test("in production only the __Secure- cookie name is read", () => {
  const plain = `better-auth.session_token=${signed("tok123")}`;
  const secure = `__Secure-better-auth.session_token=${signed("tok123")}`;
  expect(verifiedToken(plain, secret, true)).toBe(undefined);
  expect(verifiedToken(secure, secret, true)).toBe("tok123");
  expect(verifiedToken(plain, secret, false)).toBe("tok123");
});

test("two session cookies are refused, not the first one taken", () => {
  const a = `__Secure-better-auth.session_token=${signed("planted")}`;
  const b = `__Secure-better-auth.session_token=${signed("mine")}`;
  expect(verifiedToken(`${a}; ${b}`, secret, true)).toBe(undefined);
  expect(verifiedToken(`${a}; ${b}`, secret, false)).toBe(undefined);
  const mixed = `better-auth.session_token=${signed("planted")}; ${b}`;
  expect(verifiedToken(mixed, secret, false)).toBe(undefined);
  // In production the unprefixed one is not a session cookie at all: the secure one is read.
  expect(verifiedToken(mixed, secret, true)).toBe("mine");
});

const { t, call } = appForTests();

test("reads the same user as Better Auth does, from a real sign-up's cookie", async () => {
  const who = await signUp(t.app, { name: "Reader Check" });
  const ours = await call(who, "GET", "/api/user");
  const theirs = await call(who, "GET", "/api/auth/get-session");
  expect(ours.json()).toMatchObject({ email: who.email, name: "Reader Check" });
  expect(ours.json()._id).toBe(theirs.json().user.id);
});

test("an expired session is refused", async () => {
  const who = await signUp(t.app);
  await t.database.pool.query("update session set expires_at = now() - interval '1 second'");
  const res = await call(who, "GET", "/api/user");
  expect(res.statusCode).toBe(401);
});

test("stillSignedInSql says what the reader finds: live, expired, too old, an admin's, someone else's, ended", async () => {
  const who = await signUp(t.app);
  const other = await signUp(t.app);
  const token = verifiedToken(who.cookie, secret)!;
  const read = createSessionReader(t.database.pool, secret, { absoluteSeconds: 3600 });
  const me = (await read(who.cookie))!;
  const otherId = (await read(other.cookie))!.id;
  const check = async (userId = me.id) => {
    const { rows } = await t.database.db.execute<{ ok: boolean }>(
      sql`select ${stillSignedInSql(token, userId, 3600)} as ok`,
    );
    return rows[0]!.ok;
  };
  const session = (set: string) =>
    t.database.pool.query(`update session set ${set} where token = $1`, [token]);

  expect(me.role).toBe("user");
  expect(await check()).toBe(true);
  expect(await check(otherId)).toBe(false);

  await session("expires_at = now() - interval '1 second'");
  expect(await read(who.cookie)).toBeNull();
  expect(await check()).toBe(false);
  await session("expires_at = now() + interval '1 day', created_at = now() - interval '2 hours'");
  expect(await read(who.cookie)).toBeNull();
  expect(await check()).toBe(false);
  await session("created_at = now()");
  expect(await check()).toBe(true);

  await t.database.pool.query(`update "user" set role = 'admin' where id = $1`, [me.id]);
  expect((await read(who.cookie))!.role).toBe("admin");
  expect(await check()).toBe(false);
  await t.database.pool.query(`update "user" set role = 'user' where id = $1`, [me.id]);
  expect(await check()).toBe(true);

  await t.database.pool.query("delete from session where token = $1", [token]);
  expect(await read(who.cookie)).toBeNull();
  expect(await check()).toBe(false);
});
