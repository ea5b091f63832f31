import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  cookieHeader,
  signIn,
  signUpAdmin,
  type TestAccount,
} from "../../../tests/support/accounts";
import {
  SOCIAL_PUBLIC_URL,
  createSocialTestApp,
  socialSignIn,
} from "../../../tests/support/social-sign-in";
import type { TestApp } from "../../../tests/support/test-app";
import { totpCode } from "../../../tests/support/totp";
import { session } from "./tables";
import { demoAccount } from "./demo-identity-provider";
import { ADMIN_2FA_MESSAGE } from "./guards";
import { CODE_REQUIRED_MESSAGE, SOCIAL_TWO_FACTOR_PAGE } from "./second-factor";

// Penetration test of 75cca6d, finding 4: social sign-in never asked for the TOTP, and the admin
// 2FA rule checked the account's flag, not the session.

let t: TestApp;
let close: () => Promise<void>;
let admin: TestAccount;
let totpURI: string;

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url,
    payload,
    headers: { origin: SOCIAL_PUBLIC_URL, ...(cookie ? { cookie } : {}) },
  });
const users = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/users", headers: { cookie } });
/** Better Auth's verify-totp as `cookie`, with a current code of the authenticator given `uri`. */
const verifyCode = (uri: string, cookie: string) =>
  post("/api/auth/two-factor/verify-totp", { code: totpCode(uri) }, cookie);

beforeAll(async () => {
  ({ t, close } = await createSocialTestApp({
    ADMIN_EMAILS: demoAccount.email,
    ADMIN_2FA_REQUIRED: "true",
  }));
  // The identity provider's account has a password account of the same (verified) address.
  admin = await signUpAdmin(t, { email: demoAccount.email, name: "Dana Admin" });
});
afterAll(() => close());

test("turning 2FA on needs a code, marks that session as second-factor and ends the account's other sessions", async () => {
  const elsewhere = await signIn(t.app, admin.email, admin.password);
  expect((await users(elsewhere)).statusCode).toBe(403); // no 2FA yet

  const enable = await post(
    "/api/auth/two-factor/enable",
    { password: admin.password },
    admin.cookie,
  );
  expect(enable.statusCode).toBe(200);
  totpURI = (enable.json() as { totpURI: string }).totpURI;
  const verify = await verifyCode(totpURI, admin.cookie);
  expect(verify.statusCode).toBe(200);
  admin.cookie = cookieHeader(verify.headers["set-cookie"]);
  expect((await users(admin.cookie)).statusCode).toBe(200);
  // The other browser was signed out.
  expect((await users(elsewhere)).statusCode).toBe(401);
});

test("a social sign-in of an account with 2FA stops at the code, as a password sign-in does", async () => {
  const social = await socialSignIn(t.app, SOCIAL_PUBLIC_URL, demoAccount);
  expect(social.status).toBe(302);
  expect(social.location).toBe(`${SOCIAL_TWO_FACTOR_PAGE}&from=%2Fdashboard`);
  // No session yet: the admin routes are closed, and so is the customer's own data.
  expect((await users(social.cookie)).statusCode).toBe(401);
  const me = await t.app.inject({
    method: "GET",
    url: "/api/user",
    headers: { cookie: social.cookie },
  });
  expect(me.statusCode).toBe(401);

  const wrong = await post("/api/auth/two-factor/verify-totp", { code: "000000" }, social.cookie);
  expect(wrong.statusCode).toBe(401);
  const code = await verifyCode(totpURI, social.cookie);
  expect(code.statusCode).toBe(200);
  expect((await users(cookieHeader(code.headers["set-cookie"]))).statusCode).toBe(200);
});

test("the admin 2FA rule reads the session: a session without a second factor is refused", async () => {
  // Sessions opened before this rule (or by a social sign-in before it) have no second factor.
  const [row] = await t.database.db
    .select({ userId: session.userId })
    .from(session)
    .where(eq(session.secondFactor, true));
  const mark = (secondFactor: boolean) =>
    t.database.db.update(session).set({ secondFactor }).where(eq(session.userId, row!.userId));
  await mark(false);
  const refused = await users(admin.cookie);
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toEqual({ error: "forbidden", message: ADMIN_2FA_MESSAGE });
  await mark(true);
  expect((await users(admin.cookie)).statusCode).toBe(200);
});

test("new backup codes and turning 2FA off need a current code; off ends the other sessions", async () => {
  const withoutCode = await post(
    "/api/auth/two-factor/generate-backup-codes",
    { password: admin.password },
    admin.cookie,
  );
  expect(withoutCode.statusCode).toBe(400);
  expect(withoutCode.json()).toMatchObject({ message: CODE_REQUIRED_MESSAGE });
  const codes = await post(
    "/api/auth/two-factor/generate-backup-codes",
    { password: admin.password, code: totpCode(totpURI) },
    admin.cookie,
  );
  expect(codes.statusCode).toBe(200);

  // A second browser, signed in with the code.
  const pending = await post("/api/auth/sign-in/email", {
    email: admin.email,
    password: admin.password,
  });
  const second = await verifyCode(totpURI, cookieHeader(pending.headers["set-cookie"]));
  const elsewhere = cookieHeader(second.headers["set-cookie"]);
  expect((await users(elsewhere)).statusCode).toBe(200);

  const passwordOnly = await post(
    "/api/auth/two-factor/disable",
    { password: admin.password },
    admin.cookie,
  );
  expect(passwordOnly.statusCode).toBe(400);
  const wrongCode = await post(
    "/api/auth/two-factor/disable",
    { password: admin.password, code: "000000" },
    admin.cookie,
  );
  expect(wrongCode.statusCode).toBe(401);
  const off = await post(
    "/api/auth/two-factor/disable",
    { password: admin.password, code: totpCode(totpURI) },
    admin.cookie,
  );
  expect(off.statusCode).toBe(200);
  const after = await t.app.inject({
    method: "GET",
    url: "/api/user",
    headers: { cookie: cookieHeader(off.headers["set-cookie"]) },
  });
  expect(after.statusCode).toBe(200);
  const gone = await t.app.inject({
    method: "GET",
    url: "/api/user",
    headers: { cookie: elsewhere },
  });
  expect(gone.statusCode).toBe(401);
});
