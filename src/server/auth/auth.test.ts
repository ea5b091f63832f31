import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { cookieHeader, signIn, signUp } from "../../../tests/support/accounts";
import { waitForMail } from "../../../tests/support/mailbox";
import { createTestApp } from "../../../tests/support/test-app";
import { appForTests } from "../../../tests/support/store";
import { account } from "./tables";
import { user } from "../users/tables";

const { t, call } = appForTests({
  env: {
    ADMIN_EMAILS: "boss@example.com, Chief@Example.com",
    AUTH_RATE_LIMIT_PER_EMAIL: "3",
    AUTH_RATE_LIMIT_PER_IP: "1000",
  },
});

const session = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } });

test("sign-up creates a user with its display name, hashes the password and opens a session", async () => {
  const res = await call(null, "POST", "/api/auth/sign-up/email", {
    email: "New.Person@example.com",
    password: "Rotor-Caliper-42",
    name: "New Person",
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
  expect(row?.password).not.toContain("Rotor-Caliper-42");
  expect(row?.password?.length).toBeGreaterThan(40);
});

test("a short password is refused by the server too", async () => {
  const res = await call(null, "POST", "/api/auth/sign-up/email", {
    email: "short@example.com",
    password: "12345",
    name: "Short",
  });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
});

test("a wrong password and an unknown email get the same answer (no user enumeration)", async () => {
  const a = await signUp(t.app);
  const wrong = await call(null, "POST", "/api/auth/sign-in/email", {
    email: a.email,
    password: "not-the-password",
  });
  const unknown = await call(null, "POST", "/api/auth/sign-in/email", {
    email: "nobody-here@example.com",
    password: "not-the-password",
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
  const adminOnly = await call({ cookie: again }, "GET", "/api/users");
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
  const out = await call(a, "POST", "/api/auth/sign-out", {});
  expect(out.statusCode).toBe(200);
  expect((await session(a.cookie)).json()).toBeNull();
  expect((await call(a, "GET", "/api/user")).statusCode).toBe(401);
});

test("wrong passwords slow down that address from that IP only, with growing delays", async () => {
  const a = await signUp(t.app);
  const attempt = (password: string, remoteAddress: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: a.email, password },
      remoteAddress,
    });
  const attacker = "198.51.100.66";
  // AUTH_RATE_LIMIT_PER_EMAIL (3) attempts go through at once; then each must wait.
  const key = `auth:sign-in:${a.email}|${attacker}`;
  const age = (seconds: number) =>
    t.database.pool.query(
      `update rate_limit set window_start = now() - make_interval(secs => $2) where key = $1`,
      [key, seconds],
    );
  for (let i = 0; i < 3; i++)
    expect((await attempt("wrong-password", attacker)).statusCode).toBe(401);
  for (let i = 0; i < 7; i++) {
    // The last failure "just now", so a slow machine does not shorten the wait it reports.
    await age(0);
    const limited = await attempt("wrong-password", attacker);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("2");
    expect(limited.json()).toEqual({
      error: "too_many_requests",
      message: "Too many attempts. Please wait 2 seconds and try again.",
    });
  }
  // Ten wrong passwords from one address do not lock the owner out from theirs.
  expect((await attempt(a.password, "192.0.2.10")).statusCode).toBe(200);

  // Once the delay has passed, the next guess goes through and the delay after it doubles.
  await age(2);
  expect((await attempt("wrong-password", attacker)).statusCode).toBe(401);
  await age(0);
  expect((await attempt("wrong-password", attacker)).headers["retry-after"]).toBe("4");
  // The right password after the wait signs in and forgets the delays.
  await age(4);
  expect((await attempt(a.password, attacker)).statusCode).toBe(200);
  expect((await attempt("wrong-password", attacker)).statusCode).toBe(401);
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

test("behind one trusted proxy, a spoofed X-Forwarded-For does not escape the per-IP limit", async () => {
  const proxied = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: "2", TRUST_PROXY: "1" });
  try {
    const attempt = (i: number) =>
      proxied.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        payload: { email: `spoof-${i}@example.com`, password: "whatever1" },
        // The client made up the first address; our proxy (10.0.0.2) appended the real one.
        headers: { "x-forwarded-for": `203.0.113.${i}, 198.51.100.9` },
        remoteAddress: "10.0.0.2",
      });
    expect((await attempt(1)).statusCode).toBe(401);
    expect((await attempt(2)).statusCode).toBe(401);
    expect((await attempt(3)).statusCode).toBe(429);
  } finally {
    await proxied.close();
  }
});

test("Better Auth's own profile and account-deletion endpoints are switched off", async () => {
  const a = await signUp(t.app);
  for (const url of ["/api/auth/update-user", "/api/auth/delete-user", "/api/auth/change-email"]) {
    const res = await call(a, "POST", url, { name: "Someone Else", newEmail: "x@example.com" });
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
