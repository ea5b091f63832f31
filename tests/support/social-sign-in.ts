import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import {
  startDemoIdentityProvider,
  type DemoIdentityProvider,
} from "../../src/server/auth/demo-identity-provider";
import { cookieHeader } from "./accounts";
import { createTestApp, type TestApp } from "./test-app";

/** The store's address in the social sign-in tests (reached by inject; the provider redirects to it). */
export const SOCIAL_PUBLIC_URL = "http://store.example.test";

/** A test app whose social sign-in goes to a real demo identity provider on a free port. */
export async function createSocialTestApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; idp: DemoIdentityProvider; close(): Promise<void> }> {
  const idp = await startDemoIdentityProvider({
    redirectUris: [`${SOCIAL_PUBLIC_URL}/api/auth/oauth2/callback/oidc`],
  });
  const t = await createTestApp(
    { PUBLIC_URL: SOCIAL_PUBLIC_URL, ...env },
    {
      oidc: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        label: "Demo ID",
      },
    },
  );
  return {
    t,
    idp,
    close: async () => {
      await t.close();
      await idp.stop();
    },
  };
}

/**
 * Signs in with a demo identity (src/server/auth/demo-identity-provider.ts) through the whole
 * OIDC flow: the store is reached by inject, the identity provider over real HTTP. Answers the
 * store's final redirect and its session cookie.
 */
export async function socialSignIn(
  app: FastifyInstance,
  publicUrl: string,
  who: { email: string; password: string },
): Promise<{ status: number; location: string; cookie: string }> {
  const start = await app.inject({
    method: "POST",
    url: "/api/auth/sign-in/oauth2",
    headers: { origin: publicUrl },
    payload: { providerId: "oidc", callbackURL: "/dashboard" },
  });
  expect(start.statusCode).toBe(200);
  const storeCookie = cookieHeader(start.headers["set-cookie"]);
  const jar = new Map<string, string>();
  const idpCookies = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  let url = String(start.json().url);
  let posted = false;
  for (let hop = 0; hop < 15 && !url.startsWith(publicUrl); hop++) {
    const isForm = /\/interaction\/[\w-]+$/.test(new URL(url).pathname);
    const res =
      isForm && !posted
        ? await fetch(url, {
            method: "POST",
            redirect: "manual",
            headers: { cookie: idpCookies(), "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ email: who.email, password: who.password }),
          })
        : await fetch(url, { redirect: "manual", headers: { cookie: idpCookies() } });
    if (isForm) posted = true;
    keep(res);
    const next = res.headers.get("location");
    if (!next) throw new Error(`identity provider stopped at ${url}: ${res.status}`);
    url = new URL(next, url).toString();
  }
  const back = new URL(url);
  const done = await app.inject({
    method: "GET",
    url: back.pathname + back.search,
    headers: { cookie: storeCookie },
  });
  return {
    status: done.statusCode,
    location: String(done.headers.location ?? ""),
    cookie: cookieHeader(done.headers["set-cookie"]),
  };
}
