import { expect, test } from "vitest";
import { cookieHeader } from "../../../tests/support/accounts";
import { storeForTests } from "../../../tests/support/store";
import { totpCode } from "../../../tests/support/totp";
import { ADMIN_2FA_MESSAGE } from "./guards";

const { t, admin } = storeForTests({
  admin: { email: "totp-admin@example.com", name: "Tess Admin" },
  env: { ADMIN_2FA_REQUIRED: "true" },
});

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
const users = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/users", headers: { cookie } });
/** Better Auth's verify-totp as `cookie`, with a current code of the authenticator given `uri`. */
const verifyCode = (uri: string, cookie: string) =>
  post("/api/auth/two-factor/verify-totp", { code: totpCode(uri) }, cookie);
/** The admin signs in with their password (which asks for the second factor). */
const passwordStep = () =>
  post("/api/auth/sign-in/email", { email: admin.email, password: admin.password });
/** Better Auth's verify-backup-code with `code`, as the session of a password step's answer. */
const verifyBackupCode = (
  code: string | undefined,
  step: Awaited<ReturnType<typeof passwordStep>>,
) =>
  post(
    "/api/auth/two-factor/verify-backup-code",
    { code },
    cookieHeader(step.headers["set-cookie"]),
  );

test("RFC 6238's own test vector (SHA-1, T=59) gives 287082", () => {
  // Secret "12345678901234567890" in base32; the RFC's 8-digit 94287082 ends in 287082.
  expect(totpCode("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59_000)).toBe(
    "287082",
  );
});

test("an admin without 2FA is refused admin actions; after enabling it, sign-in asks for the code", async () => {
  const refused = await users(admin.cookie);
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toEqual({ error: "forbidden", message: ADMIN_2FA_MESSAGE });

  const enable = await post(
    "/api/auth/two-factor/enable",
    { password: admin.password },
    admin.cookie,
  );
  expect(enable.statusCode).toBe(200);
  const { totpURI, backupCodes } = enable.json() as { totpURI: string; backupCodes: string[] };
  expect(totpURI).toMatch(/^otpauth:\/\/totp\/PartsWorks:/);
  expect(backupCodes.length).toBeGreaterThanOrEqual(8);

  // Not on until a code proves the authenticator has the secret.
  expect((await users(admin.cookie)).statusCode).toBe(403);
  const wrong = await post("/api/auth/two-factor/verify-totp", { code: "000000" }, admin.cookie);
  expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
  expect(wrong.statusCode).toBeLessThan(500);
  const verify = await verifyCode(totpURI, admin.cookie);
  expect(verify.statusCode).toBe(200);
  const cookie = cookieHeader(verify.headers["set-cookie"]) || admin.cookie;
  expect((await users(cookie)).statusCode).toBe(200);

  // Signing in now stops halfway: no session until the code.
  const signIn = await passwordStep();
  expect(signIn.statusCode).toBe(200);
  expect(signIn.json()).toMatchObject({ twoFactorRedirect: true });
  const pending = cookieHeader(signIn.headers["set-cookie"]);
  expect((await users(pending)).statusCode).toBe(401);
  const second = await verifyCode(totpURI, pending);
  expect(second.statusCode).toBe(200);
  expect((await users(cookieHeader(second.headers["set-cookie"]))).statusCode).toBe(200);

  // A backup code works once.
  const backup = await verifyBackupCode(backupCodes[0], await passwordStep());
  expect(backup.statusCode).toBe(200);
  expect((await users(cookieHeader(backup.headers["set-cookie"]))).statusCode).toBe(200);
  const reused = await verifyBackupCode(backupCodes[0], await passwordStep());
  expect(reused.statusCode).toBeGreaterThanOrEqual(400);
  expect(reused.statusCode).toBeLessThan(500);
});
