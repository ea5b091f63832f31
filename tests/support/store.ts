import { signUpAdmin, type TestAccount } from "./accounts";
import { shipsToTestAddress } from "./destination";
import { createTestApp, type TestApp } from "./test-app";

/** The admin of a test app: the address its ADMIN_EMAILS names, and a name when a test reads it. */
export type AdminSignUp = string | { email: string; name: string };

/**
 * The real app (createTestApp) whose ADMIN_EMAILS is `admin`, with that admin signed up and
 * signed in (accounts.ts signUpAdmin): where most API tests start. `env` and `extra` go to
 * createTestApp as they are.
 */
export async function testAppWithAdmin(
  admin: AdminSignUp,
  env: Record<string, string> = {},
  extra: Parameters<typeof createTestApp>[1] = {},
): Promise<{ t: TestApp; admin: TestAccount }> {
  const account = typeof admin === "string" ? { email: admin } : admin;
  const t = await createTestApp({ ADMIN_EMAILS: account.email, ...env }, extra);
  return { t, admin: await signUpAdmin(t, account) };
}

/** testAppWithAdmin on a store that ships to the test address (destination.ts shipsToTestAddress). */
export const shippingAppWithAdmin = (admin: AdminSignUp, env: Record<string, string> = {}) =>
  testAppWithAdmin(admin, env, { seed: shipsToTestAddress });
