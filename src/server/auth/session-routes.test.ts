import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signIn, signUp, type TestAccount } from "../../../tests/support/accounts";
import { appForTests } from "../../../tests/support/store";
import { session } from "./tables";
import { user } from "../users/tables";
import { describeUserAgent } from "./sessions";

const { t, call } = appForTests({ env: { SESSION_ABSOLUTE_HOURS: "2" } });

const firefoxOnAndroid = "Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0";

const list = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/user/sessions", headers: { cookie } });

async function sessionsOf(who: TestAccount) {
  const res = await list(who.cookie);
  expect(res.statusCode).toBe(200);
  return (
    res.json() as {
      sessions: { id: string; current: boolean; device: string; ipAddress: string | null }[];
    }
  ).sessions;
}

/** Signs in again from another "browser" (its own User-Agent and, behind no proxy, address). */
async function signInFrom(who: TestAccount, userAgent: string, forwardedFor?: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { "user-agent": userAgent, ...(forwardedFor && { "x-forwarded-for": forwardedFor }) },
    payload: { email: who.email, password: who.password },
  });
  expect(res.statusCode).toBe(200);
  return res.headers["set-cookie"] as string | string[];
}

test("a user sees where they are signed in, this browser marked, with a readable device", async () => {
  const who = await signUp(t.app);
  const other = await signInFrom(who, firefoxOnAndroid, "203.0.113.9");
  expect(other).toBeDefined();
  const sessions = await sessionsOf(who);
  expect(sessions).toHaveLength(2);
  expect(sessions.filter((s) => s.current)).toHaveLength(1);
  const firefox = sessions.find((s) => !s.current)!;
  expect(firefox.device).toBe("Firefox on Android");
  // The recorded address is the one the server resolved, not what the client wrote.
  expect(firefox.ipAddress).not.toBe("203.0.113.9");
});

test("a user ends one other session; that browser is signed out at once, theirs is not", async () => {
  const who = await signUp(t.app);
  const otherCookie = await signIn(t.app, who.email, who.password);
  const other = (await sessionsOf(who)).find((s) => !s.current)!;
  const ended = await call(who, "DELETE", `/api/user/sessions/${other.id}`);
  expect(ended.statusCode).toBe(204);
  expect((await list(otherCookie)).statusCode).toBe(401);
  expect(await sessionsOf(who)).toHaveLength(1);
  // Ending it again: it is gone.
  const again = await call(who, "DELETE", `/api/user/sessions/${other.id}`);
  expect(again.statusCode).toBe(404);
});

test("Sign out other sessions ends every session but the caller's", async () => {
  const who = await signUp(t.app);
  const others = [
    await signIn(t.app, who.email, who.password),
    await signIn(t.app, who.email, who.password),
  ];
  const res = await call(who, "DELETE", "/api/user/sessions?except=current");
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ ended: 2 });
  for (const cookie of others) expect((await list(cookie)).statusCode).toBe(401);
  expect(await sessionsOf(who)).toHaveLength(1);
});

test("anonymous: 401; another customer cannot see or end someone's session; an admin neither", async () => {
  const owner = await signUp(t.app);
  const stranger = await signUp(t.app);
  const [mine] = await sessionsOf(owner);
  expect((await list("")).statusCode).toBe(401);
  const anonymousEnd = await call(null, "DELETE", `/api/user/sessions/${mine!.id}`);
  expect(anonymousEnd.statusCode).toBe(401);
  // The stranger's list holds only the stranger's session.
  const theirs = await sessionsOf(stranger);
  expect(theirs.map((s) => s.id)).not.toContain(mine!.id);
  const strangerEnd = await call(stranger, "DELETE", `/api/user/sessions/${mine!.id}`);
  expect(strangerEnd.statusCode).toBe(404);
  expect((await list(owner.cookie)).statusCode).toBe(200);
});

test("ending the other sessions must say so: a bare DELETE is a 400 and ends nothing", async () => {
  const who = await signUp(t.app);
  await signIn(t.app, who.email, who.password);
  for (const url of ["/api/user/sessions", "/api/user/sessions?except=all"]) {
    const res = await call(who, "DELETE", url);
    expect(res.statusCode, url).toBe(400);
  }
  expect(await sessionsOf(who)).toHaveLength(2);
});

test("a malformed session id is a 400", async () => {
  const who = await signUp(t.app);
  for (const id of ["a%00b", "x".repeat(101), "semi;colon"]) {
    const res = await call(who, "DELETE", `/api/user/sessions/${id}`);
    expect(res.statusCode, id).toBe(400);
  }
});

test("a session ends at its absolute lifetime however recently it was used, in our routes and Better Auth's", async () => {
  const who = await signUp(t.app);
  const me = () => call(who, "GET", "/api/auth/get-session");
  expect((await me()).json()).not.toBeNull();
  const [row] = await t.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, who.email.toLowerCase()));
  // Signed in 2 h 1 min ago (the app allows 2 h), and used a moment ago (idle limit far off).
  await t.database.db
    .update(session)
    .set({
      createdAt: sql`now() - interval '121 minutes'`,
      updatedAt: sql`now()`,
      expiresAt: sql`now() + interval '7 days'`,
    })
    .where(eq(session.userId, row!.id));
  expect((await list(who.cookie)).statusCode).toBe(401);
  const better = await me();
  expect(better.statusCode).toBe(200);
  expect(better.json()).toBeNull();
  // Better Auth's path ended it for good: the row is gone.
  const left = await t.database.db.select().from(session).where(eq(session.userId, row!.id));
  expect(left).toHaveLength(0);
});

test("devices are named from the User-Agent, and unknown ones said so", () => {
  expect(describeUserAgent(firefoxOnAndroid)).toBe("Firefox on Android");
  expect(
    describeUserAgent(
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
    ),
  ).toBe("Edge on Windows");
  expect(
    describeUserAgent(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    ),
  ).toBe("Safari on iPhone");
  expect(
    describeUserAgent(
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    ),
  ).toBe("Chrome on Linux");
  expect(describeUserAgent("curl/8.5.0")).toBe("Unknown browser");
  expect(describeUserAgent(null)).toBe("Unknown browser");
});
