import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { signIn, signUp } from "../../../tests/support/accounts";
import {
  createSocialTestApp,
  SOCIAL_PUBLIC_URL,
  socialSignIn as signInSocially,
} from "../../../tests/support/social-sign-in";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { account } from "./tables";
import { user } from "../users/tables";
import { demoAccount, type DemoIdentityProvider } from "./demo-identity-provider";

// The store is reached by inject; the identity provider is a real one on a free loopback port.
const PUBLIC_URL = SOCIAL_PUBLIC_URL;
let t: TestApp;
let idp: DemoIdentityProvider;
let social: Awaited<ReturnType<typeof createSocialTestApp>> | undefined;

beforeAll(async () => {
  social = await createSocialTestApp({ ADMIN_EMAILS: demoAccount.email });
  ({ t, idp } = social);
});
afterAll(() => social?.close());

const socialSignIn = () => signInSocially(t.app, PUBLIC_URL, demoAccount);

const sessionOf = async (cookie: string) =>
  (await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } })).json();

test("a verified social identity reclaims an address squatted by an unverified password account", async () => {
  // Someone signs up first with the address (in another letter case) and fills in a profile.
  const squatter = await signUp(t.app, {
    email: demoAccount.email.toUpperCase(),
    name: "Squatter",
  });
  await t.app.inject({
    method: "PUT",
    url: "/api/user",
    headers: { cookie: squatter.cookie },
    payload: { education: "x", address: "1 Squat Lane", phoneNo: "", linkedIn: "" },
  });
  expect((await sessionOf(squatter.cookie)).user).toMatchObject({
    emailVerified: false,
    role: "user",
  });

  // The address's owner signs in with the provider, which says the address is verified.
  const owner = await socialSignIn();
  expect(owner.status).toBe(302);
  expect(owner.location).toBe("/dashboard");
  const me = (await sessionOf(owner.cookie)).user;
  expect(me).toMatchObject({ email: demoAccount.email, emailVerified: true });
  // Verified and listed in ADMIN_EMAILS: now (and only now) an admin.
  expect(me.role).toBe("admin");

  // The squatter is out: their session ended and their password no longer works.
  expect(await sessionOf(squatter.cookie)).toBeNull();
  await expect(signIn(t.app, demoAccount.email, squatter.password)).rejects.toThrow(/401/);
  const [row] = await t.database.db.select().from(user).where(eq(user.email, demoAccount.email));
  expect(row).toMatchObject({ address: "", education: "" });
  const providers = await t.database.db
    .select({ providerId: account.providerId })
    .from(account)
    .where(eq(account.userId, row!.id));
  expect(providers.map((p) => p.providerId)).toEqual(["oidc"]);

  // Signing in again with the provider lands in the same account.
  const again = await socialSignIn();
  expect((await sessionOf(again.cookie)).user.id).toBe(me.id);
});

test("a verified password account that signs in with the provider keeps its password", async () => {
  const other = await createTestApp(
    { PUBLIC_URL },
    {
      oidc: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        label: "Demo ID",
      },
    },
  );
  const first = t;
  t = other;
  try {
    const owner = await signUp(t.app, { email: demoAccount.email });
    await t.database.db
      .update(user)
      .set({ emailVerified: true })
      .where(eq(user.email, demoAccount.email));
    const social = await socialSignIn();
    expect(social.status).toBe(302);
    expect((await sessionOf(social.cookie)).user.email).toBe(demoAccount.email);
    // Linking a second sign-in method took nothing away.
    expect((await sessionOf(owner.cookie)).user.email).toBe(demoAccount.email);
    await signIn(t.app, demoAccount.email, owner.password);
  } finally {
    t = first;
    await other.close();
  }
});
