import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../src/server/db/database";
import { orders } from "../../src/server/orders/tables";
import { user } from "../../src/server/users/tables";

let n = 0;

export interface TestAccount {
  email: string;
  password: string;
  name: string;
  /** The Cookie header that carries this account's session. */
  cookie: string;
}

export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(";")[0]).join("; ");
}

/** A new account's sign-up fields: a fresh address and name, the test password, `overrides` over them. */
export function accountFields(
  overrides: Partial<Omit<TestAccount, "cookie">> = {},
): Omit<TestAccount, "cookie"> {
  n += 1;
  return {
    email: `user${n}-${Date.now()}@example.com`,
    password: "Rotor-Caliper-42",
    name: `User ${n}`,
    ...overrides,
  };
}

/** Signs a new account up through Better Auth's real endpoint and returns its session cookie. */
export async function signUp(
  app: FastifyInstance,
  overrides: Partial<Omit<TestAccount, "cookie">> = {},
): Promise<TestAccount> {
  const input = accountFields(overrides);
  const res = await app.inject({ method: "POST", url: "/api/auth/sign-up/email", payload: input });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  return { ...input, cookie: cookieHeader(res.headers["set-cookie"]) };
}

/**
 * Signs a new account up and marks its address verified (as following the emailed link does:
 * the link has its own tests); `id` is its user id.
 */
export async function signUpVerified(t: {
  app: FastifyInstance;
  database: { db: Db };
}): Promise<TestAccount & { id: string }> {
  const account = await signUp(t.app);
  const [row] = await t.database.db
    .update(user)
    .set({ emailVerified: true })
    .where(eq(user.email, account.email.toLowerCase()))
    .returning({ id: user.id });
  return { ...account, id: row!.id };
}

/**
 * A verified account the store trusts with its configured holds (checkout/read.ts `trustedSql`):
 * it has paid for an order before. That order is written as a payment leaves one (paid, with its
 * transaction), without lines: the payment flow has its own tests.
 */
export async function signUpTrusted(t: {
  app: FastifyInstance;
  database: { db: Db };
}): Promise<TestAccount & { id: string }> {
  const account = await signUpVerified(t);
  await t.database.db.insert(orders).values({
    userId: account.id,
    orderEmail: account.email.toLowerCase(),
    customerName: account.name,
    totalCents: 0,
    currency: "USD",
    phone: "5550100",
    address: "1 Dock Road",
    status: "paid",
    transactionId: `pi_trusted_${randomUUID()}`,
    paidWith: "test-card",
    holdExpiresAt: new Date(),
    paidAt: new Date(),
  });
  return account;
}

export async function signIn(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return cookieHeader(res.headers["set-cookie"]);
}

/**
 * Signs up an account whose address is listed in the app's ADMIN_EMAILS and makes it admin the
 * way a real one becomes admin: its address is marked verified (as following the emailed link
 * does; the link itself has its own tests) and it signs in again, which promotes it.
 */
export async function signUpAdmin(
  t: { app: FastifyInstance; database: { db: Db } },
  overrides: Partial<Omit<TestAccount, "cookie">> & { email: string },
): Promise<TestAccount> {
  const account = await signUp(t.app, overrides);
  await t.database.db
    .update(user)
    .set({ emailVerified: true })
    .where(eq(user.email, account.email.toLowerCase()));
  const cookie = await signIn(t.app, account.email, account.password);
  const [row] = await t.database.db
    .select({ role: user.role })
    .from(user)
    .where(eq(user.email, account.email.toLowerCase()));
  if (row?.role !== "admin") throw new Error(`${account.email} is not in ADMIN_EMAILS`);
  return { ...account, cookie };
}
