import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { cookieHeader, signIn, signUp } from "../../../tests/support/accounts";
import { waitForMail } from "../../../tests/support/mailbox";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { account, user } from "../db/schema";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    ADMIN_EMAILS: "boss@example.com, Chief@Example.com",
    AUTH_RATE_LIMIT_PER_EMAIL: "3",
    AUTH_RATE_LIMIT_PER_IP: "1000",
  });
});
afterAll(() => t.close());

const session = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } });

test("sign-up creates a user with its display name, hashes the password and opens a session", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    payload: { email: "New.Person@example.com", password: "secret123", name: "New Person" },
  });
  expect(res.statusCode).toBe(200);
  const setCookie = String(res.headers["set-cookie"]);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);

  const me = (await session(cookieHeader(res.headers["set-cookie"]))).json();
  expect(me.user).toMatchObject({ email: "new.person@example.com", name: "New Person" });
  expect(me.user.role).toBe("user");

  const [row] = await t.database.db
    .select({ password: account.password })
    .from(account)
    .innerJoin(user, eq(user.id, account.userId))
    .where(eq(user.email, "new.person@example.com"));
  expect(row?.password).toBeTruthy();
  expect(row?.password).not.toContain("secret123");
  expect(row?.password?.length).toBeGreaterThan(40);
});

test("a short password is refused by the server too", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    payload: { email: "short@example.com", password: "12345", name: "Short" },
  });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
});

test("a wrong password and an unknown email get the same answer (no user enumeration)", async () => {
  const a = await signUp(t.app);
  const wrong = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email: a.email, password: "not-the-password" },
  });
  const unknown = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email: "nobody-here@example.com", password: "not-the-password" },
  });
  expect(wrong.statusCode).toBe(401);
  expect(unknown.statusCode).toBe(401);
  expect(wrong.json()).toEqual(unknown.json());
  expect(wrong.json()).toMatchObject({ message: "Invalid email or password" });
});

test("ADMIN_EMAILS promotes only a verified address: a first-come sign-up in another letter case stays a customer", async () => {
  // The reproduction from issue 13: someone signs up first with a listed address, in another case.
  const squatter = await signUp(t.app, { email: "BOSS@Example.com" });
  expect((await session(squatter.cookie)).json().user).toMatchObject({
    email: "boss@example.com",
    role: "user",
    emailVerified: false,
  });
  // Signing in again does not promote an unverified address either.
  const again = await signIn(t.app, "boss@example.com", squatter.password);
  expect((await session(again)).json().user.role).toBe("user");
  const adminOnly = await t.app.inject({
    method: "GET",
    url: "/api/users",
    headers: { cookie: again },
  });
  expect(adminOnly.statusCode).toBe(403);

  // Whoever can read the listed mailbox follows the link: now the account is admin.
  const mail = await waitForMail(t.app, "boss@example.com", /confirm your email address/i);
  const link = new URL(mail.links.find((l) => l.includes("/verify-email"))!);
  const opened = await t.app.inject({ method: "GET", url: link.pathname + link.search });
  expect(opened.statusCode).toBe(302);
  expect((await session(again)).json().user).toMatchObject({ role: "admin", emailVerified: true });
});

test("a verified listed address that signed up before it was listed becomes admin at sign-in", async () => {
  const chief = await signUp(t.app, { email: "chief@example.com" });
  expect((await session(chief.cookie)).json().user.role).toBe("user");
  await t.database.db
    .update(user)
    .set({ emailVerified: true })
    .where(eq(user.email, "chief@example.com"));
  const cookie = await signIn(t.app, chief.email, chief.password);
  expect((await session(cookie)).json().user.role).toBe("admin");
});

test("sign-out ends the session on the server", async () => {
  const a = await signUp(t.app);
  const out = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-out",
    headers: { cookie: a.cookie },
    payload: {},
  });
  expect(out.statusCode).toBe(200);
  expect((await session(a.cookie)).json()).toBeNull();
  expect(
    (await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie: a.cookie } }))
      .statusCode,
  ).toBe(401);
});

test("sign-in is rate-limited per email with a clear 429", async () => {
  const a = await signUp(t.app);
  const attempt = () =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: a.email, password: "wrong-password" },
    });
  // The sign-up above was the first attempt for this email; two more are allowed.
  for (let i = 0; i < 2; i++) expect((await attempt()).statusCode).toBe(401);
  const limited = await attempt();
  expect(limited.statusCode).toBe(429);
  expect(limited.headers["retry-after"]).toBeDefined();
  expect(limited.json()).toEqual({
    error: "too_many_requests",
    message: expect.stringMatching(
      /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
    ),
  });
  // Even the right password waits: the limit is on attempts, not failures.
  await expect(signIn(t.app, a.email, a.password)).rejects.toThrow(/429/);
});

test("sign-in and sign-up are rate-limited per IP", async () => {
  const perIp = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: "2" });
  try {
    const attempt = (i: number) =>
      perIp.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        payload: { email: `ip-${i}@example.com`, password: "whatever1" },
        remoteAddress: "203.0.113.7",
      });
    expect((await attempt(1)).statusCode).toBe(401);
    expect((await attempt(2)).statusCode).toBe(401);
    expect((await attempt(3)).statusCode).toBe(429);
    const other = await perIp.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: "ip-4@example.com", password: "whatever1" },
      remoteAddress: "203.0.113.8",
    });
    expect(other.statusCode).toBe(401);
  } finally {
    await perIp.close();
  }
});

test("Better Auth's own profile and account-deletion endpoints are switched off", async () => {
  const a = await signUp(t.app);
  for (const url of ["/api/auth/update-user", "/api/auth/delete-user", "/api/auth/change-email"]) {
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: { cookie: a.cookie },
      payload: { name: "Someone Else", newEmail: "x@example.com" },
    });
    expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, url).toBeLessThan(500);
  }
  expect((await session(a.cookie)).json().user.name).toBe(a.name);
});

test("a state-changing call from a foreign Origin is refused", async () => {
  const a = await signUp(t.app);
  const res = await t.app.inject({
    method: "PUT",
    url: "/api/user",
    headers: { cookie: a.cookie, origin: "https://evil.example" },
    payload: { education: "x", address: "", phoneNo: "", linkedIn: "" },
  });
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({
    error: "cross_site",
    message: "Cross-site requests are not accepted",
  });
  const signInFromElsewhere = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: "https://evil.example" },
    payload: { email: a.email, password: a.password },
  });
  expect(signInFromElsewhere.statusCode).toBe(403);
});
