import { expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";

/**
 * Signing in for tests whose subject is not the sign-up or login form: the same Better Auth
 * endpoints the forms call (`POST /api/auth/sign-up/email`, `/api/auth/sign-in/email`, see
 * src/web/features/auth/api/sign-in.ts), sent with the browser context's own request client, so
 * the session cookie the store sets lands in that context's cookie jar and every page of it is
 * signed in. The account is what the form makes: a sign-up is unverified (the verification mail
 * is sent) and signed in; no page is loaded. Tests whose subject is the form use
 * signUpInBrowser / signInInBrowser (auth-helpers.ts).
 */
type Browserish = Page | BrowserContext | APIRequestContext;

export interface Account {
  email: string;
  password: string;
}

export interface NewAccount extends Account {
  name: string;
}

export const demoAdmin = { email: "admin@example.com", password: "admin123", name: "Avery Admin" };
export const demoCustomer = {
  email: "customer@example.com",
  password: "customer123",
  name: "Casey Customer",
};

let n = 0;
/** A fresh customer's details (the password passes the sign-up's strength check). */
export function newCustomer(): NewAccount {
  n += 1;
  const id = `${Date.now()}-${process.pid}-${n}`;
  return {
    name: `Test Buyer ${n}`,
    email: `buyer-${id}@example.com`,
    password: "Rotor-Caliper-42",
  };
}

function requestOf(target: Browserish): APIRequestContext {
  return "request" in target ? target.request : target;
}

/** A browser sends its page's Origin on these posts; the store refuses a foreign one. */
function origin() {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set: is tests/e2e/global-setup.ts running?");
  return new URL(url).origin;
}

/** Signs up a new customer in `target`'s browser context (signed in, address not verified). */
export async function signUpThroughApi<T extends NewAccount>(
  target: Browserish,
  who: T,
): Promise<T>;
export async function signUpThroughApi(target: Browserish): Promise<NewAccount>;
export async function signUpThroughApi(target: Browserish, who: NewAccount = newCustomer()) {
  const res = await requestOf(target).post("/api/auth/sign-up/email", {
    data: { name: who.name, email: who.email, password: who.password },
    headers: { origin: origin() },
  });
  expect(res.status(), `sign-up of ${who.email}: ${await res.text()}`).toBe(200);
  return who;
}

/** Signs `who` in, in `target`'s browser context (an account without two-factor authentication). */
export async function signInThroughApi<T extends Account>(target: Browserish, who: T): Promise<T> {
  const res = await requestOf(target).post("/api/auth/sign-in/email", {
    data: { email: who.email, password: who.password },
    headers: { origin: origin() },
  });
  const body = await res.text();
  expect(res.status(), `sign-in of ${who.email}: ${body}`).toBe(200);
  // An account with 2FA gets a code challenge instead of a session: not what this helper is for.
  expect(body, `sign-in of ${who.email} asks for a second factor`).not.toContain(
    "twoFactorRedirect",
  );
  return who;
}
