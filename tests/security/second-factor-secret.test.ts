import { beforeAll, expect, test } from "vitest";
import { ADMIN_2FA_MESSAGE } from "../../src/server/auth/guards";
import { CODE_REQUIRED_MESSAGE, CODE_USED_MESSAGE } from "../../src/server/auth/second-factor";
import { TOTP_PERIOD_SECONDS } from "../../src/server/auth/totp";
import { cookieHeader, signUpAdmin, type TestAccount } from "../support/accounts";
import { totpCode } from "../support/totp";
import { appForTests } from "../support/store";

// Fifth outside review (issue 49), finding 1: get-totp-uri gave the authenticator's secret for
// the password alone, and a code computed from it turned 2FA off; one code signed in three times;
// an admin signed in on a trusted device was refused admin actions.

const { t } = appForTests({
  env: {
    ADMIN_EMAILS: "secret-admin@example.com,replay-admin@example.com,device-admin@example.com",
    ADMIN_2FA_REQUIRED: "true",
    // Every request here comes from one address; the limit has its own tests.
    AUTH_RATE_LIMIT_PER_IP: "1000",
  },
});
/** Three admins of their own: one per test (signed up beforehand: a password hash is slow here). */
let admins: Record<"secret" | "replay" | "device", TestAccount>;

beforeAll(async () => {
  admins = {
    secret: await signUpAdmin(t, { email: "secret-admin@example.com" }),
    replay: await signUpAdmin(t, { email: "replay-admin@example.com" }),
    device: await signUpAdmin(t, { email: "device-admin@example.com" }),
  };
});

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
const users = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/users", headers: { cookie } });
/** The code of the time-step `offset` steps from now (the store takes -1, 0 and +1). */
const codeAt = (uri: string, offset = 0) =>
  totpCode(uri, Date.now() + offset * TOTP_PERIOD_SECONDS * 1000);
const secretOf = (uri: string) => new URL(uri).searchParams.get("secret");

/** Turns 2FA on for `who` (the first code proves the app has the secret); its otpauth URI. */
async function turnOn(who: TestAccount): Promise<string> {
  const enable = await post("/api/auth/two-factor/enable", { password: who.password }, who.cookie);
  expect(enable.statusCode).toBe(200);
  const { totpURI } = enable.json() as { totpURI: string };
  const verify = await post(
    "/api/auth/two-factor/verify-totp",
    { code: codeAt(totpURI) },
    who.cookie,
  );
  expect(verify.statusCode).toBe(200);
  who.cookie = cookieHeader(verify.headers["set-cookie"]);
  return totpURI;
}

/** The password step of a sign-in: the challenge cookie the code step needs. */
async function passwordStep(who: TestAccount, cookie?: string) {
  const res = await post(
    "/api/auth/sign-in/email",
    { email: who.email, password: who.password },
    cookie,
  );
  expect(res.statusCode).toBe(200);
  return res;
}

test("once 2FA is on, the authenticator's secret takes a current code besides the password", async () => {
  const who = admins.secret;
  const enable = await post("/api/auth/two-factor/enable", { password: who.password }, who.cookie);
  const { totpURI } = enable.json() as { totpURI: string };
  // While it is being turned on (no code given yet), the password shows it again.
  const during = await post(
    "/api/auth/two-factor/get-totp-uri",
    { password: who.password },
    who.cookie,
  );
  expect(during.statusCode).toBe(200);
  expect(secretOf((during.json() as { totpURI: string }).totpURI)).toBe(secretOf(totpURI));
  const verify = await post(
    "/api/auth/two-factor/verify-totp",
    { code: codeAt(totpURI) },
    who.cookie,
  );
  expect(verify.statusCode).toBe(200);
  const cookie = cookieHeader(verify.headers["set-cookie"]);

  // The review's path: a session and the password gave the secret, or a new one.
  for (const path of ["/api/auth/two-factor/get-totp-uri", "/api/auth/two-factor/enable"]) {
    const passwordOnly = await post(path, { password: who.password }, cookie);
    expect(passwordOnly.statusCode, path).toBe(400);
    expect(passwordOnly.json(), path).toMatchObject({ message: CODE_REQUIRED_MESSAGE });
    expect(passwordOnly.body, path).not.toContain(secretOf(totpURI));
    const wrongCode = await post(path, { password: who.password, code: "000000" }, cookie);
    expect(wrongCode.statusCode, path).toBe(401);
  }
  // With a current code, the same secret (a new phone).
  const shown = await post(
    "/api/auth/two-factor/get-totp-uri",
    { password: who.password, code: codeAt(totpURI, 1) },
    cookie,
  );
  expect(shown.statusCode).toBe(200);
  expect(secretOf((shown.json() as { totpURI: string }).totpURI)).toBe(secretOf(totpURI));
  // The code that showed it does not show it twice.
  const again = await post(
    "/api/auth/two-factor/get-totp-uri",
    { password: who.password, code: codeAt(totpURI, 1) },
    cookie,
  );
  expect(again.statusCode).toBe(401);
  expect(again.json()).toMatchObject({ message: CODE_USED_MESSAGE });
});

test("a code signs in once: two sign-ins sending it at once get one session, a later one none", async () => {
  const who = admins.replay;
  const uri = await turnOn(who);
  const code = codeAt(uri);
  const [a, b] = await Promise.all([passwordStep(who), passwordStep(who)]);
  const both = await Promise.all(
    [a, b].map((res) =>
      post("/api/auth/two-factor/verify-totp", { code }, cookieHeader(res.headers["set-cookie"])),
    ),
  );
  expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  expect(both.find((r) => r.statusCode === 401)!.json()).toMatchObject({
    message: CODE_USED_MESSAGE,
  });

  const later = await passwordStep(who);
  const replayed = await post(
    "/api/auth/two-factor/verify-totp",
    { code },
    cookieHeader(later.headers["set-cookie"]),
  );
  expect(replayed.statusCode).toBe(401);
  expect(replayed.json()).toMatchObject({ message: CODE_USED_MESSAGE });
  // The next code does (the challenge is still open: a used code is no failed guess).
  const next = await post(
    "/api/auth/two-factor/verify-totp",
    { code: codeAt(uri, 1) },
    cookieHeader(later.headers["set-cookie"]),
  );
  expect(next.statusCode).toBe(200);
  expect((await users(cookieHeader(next.headers["set-cookie"]))).statusCode).toBe(200);
});

test("a sign-in on a trusted device is a second-factor session; turning 2FA off forgets the device", async () => {
  const who = admins.device;
  const uri = await turnOn(who);
  const challenge = await passwordStep(who);
  const verified = await post(
    "/api/auth/two-factor/verify-totp",
    { code: codeAt(uri), trustDevice: true },
    cookieHeader(challenge.headers["set-cookie"]),
  );
  expect(verified.statusCode).toBe(200);
  const trusted = trustCookie(verified.headers["set-cookie"]);
  expect(trusted).toMatch(/trust_device=./);

  // The next sign-in on that browser asks for no code, and its session may do admin work.
  const onDevice = await passwordStep(who, trusted);
  expect(onDevice.json()).not.toHaveProperty("twoFactorRedirect");
  const session = cookieHeader(onDevice.headers["set-cookie"]);
  const admin = await users(session);
  expect(admin.json()).not.toEqual({ error: "forbidden", message: ADMIN_2FA_MESSAGE });
  expect(admin.statusCode).toBe(200);

  // Off (with a code), then on again: the device must give a code again.
  const off = await post(
    "/api/auth/two-factor/disable",
    { password: who.password, code: codeAt(uri, 1) },
    session,
  );
  expect(off.statusCode).toBe(200);
  const cookie = cookieHeader(off.headers["set-cookie"]);
  const enable = await post("/api/auth/two-factor/enable", { password: who.password }, cookie);
  const { totpURI } = enable.json() as { totpURI: string };
  const on = await post("/api/auth/two-factor/verify-totp", { code: codeAt(totpURI, 1) }, cookie);
  expect(on.statusCode).toBe(200);
  const later = await passwordStep(who, trustCookie(onDevice.headers["set-cookie"]));
  expect(later.json()).toMatchObject({ twoFactorRedirect: true });
});

/** The trusted-device cookie among a response's cookies. */
function trustCookie(setCookie: string | string[] | undefined): string {
  return cookieHeader(setCookie)
    .split("; ")
    .filter((c) => c.includes("trust_device="))
    .join("; ");
}
