import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { signIn, signUp } from "../../../tests/support/accounts";
import {
  createSocialTestApp,
  SOCIAL_PUBLIC_URL,
  socialSignIn,
} from "../../../tests/support/social-sign-in";
import type { TestApp } from "../../../tests/support/test-app";
import { user } from "../users/tables";
import { unverifiedDemoAccount } from "./demo-identity-provider";

// A provider that answers `email_verified: false`: its word is no proof of the address.
const PUBLIC_URL = SOCIAL_PUBLIC_URL;
let t: TestApp;
let social: Awaited<ReturnType<typeof createSocialTestApp>> | undefined;

beforeAll(async () => {
  social = await createSocialTestApp({ ADMIN_EMAILS: unverifiedDemoAccount.email });
  t = social.t;
});
afterAll(() => social?.close());

const sessionOf = async (cookie: string) =>
  (await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } })).json();

test("an unverified social identity neither reclaims a squatted address nor becomes admin", async () => {
  // A password sign-up holds the address first (never verified).
  const squatter = await signUp(t.app, { email: unverifiedDemoAccount.email, name: "Squatter" });

  // The provider does not vouch for the address: no linking, no takeover.
  const refused = await socialSignIn(t.app, PUBLIC_URL, unverifiedDemoAccount);
  expect(refused.cookie).not.toMatch(/session_token=./);
  expect(refused.location).toMatch(/error=/);
  expect((await sessionOf(squatter.cookie)).user).toMatchObject({
    email: unverifiedDemoAccount.email,
    emailVerified: false,
    role: "user",
  });
  await signIn(t.app, unverifiedDemoAccount.email, squatter.password);

  // With the address free, the unverified identity gets an account of its own: still
  // unverified, and not promoted although ADMIN_EMAILS lists the address.
  await t.database.db.delete(user).where(eq(user.email, unverifiedDemoAccount.email));
  const fresh = await socialSignIn(t.app, PUBLIC_URL, unverifiedDemoAccount);
  expect(fresh.status).toBe(302);
  const me = (await sessionOf(fresh.cookie)).user;
  expect(me).toMatchObject({
    email: unverifiedDemoAccount.email,
    emailVerified: false,
    role: "user",
  });
  // Signing in again does not promote it either.
  const again = await socialSignIn(t.app, PUBLIC_URL, unverifiedDemoAccount);
  expect((await sessionOf(again.cookie)).user).toMatchObject({ id: me.id, role: "user" });
});
