import type { FastifyRequest } from "fastify";
import { loadPasswordChecker, type PasswordContext } from "../../contract/password-strength";
import type { Auth } from "./auth";

/**
 * The paths that set a password, and the field that carries it. Better Auth checks the length
 * (6–128, the specification's messages); this adds the strength check of contract/password-strength.
 */
const PASSWORD_FIELDS: Record<string, string> = {
  "/api/auth/sign-up/email": "password",
  "/api/auth/reset-password": "newPassword",
  "/api/auth/change-password": "newPassword",
};

export interface WeakPassword {
  field: string;
  message: string;
}

/** Why the password this request sets is refused, if it is: too easy to guess for this account. */
export async function weakPassword(
  req: FastifyRequest,
  pathname: string,
  auth: Auth,
): Promise<WeakPassword | undefined> {
  const field = PASSWORD_FIELDS[pathname];
  if (req.method !== "POST" || field === undefined) return undefined;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const password = body[field];
  // Missing, short or long passwords get Better Auth's own answers (the specification's messages).
  if (typeof password !== "string" || password.length < 6 || password.length > 128) {
    return undefined;
  }
  const account = await accountOf(req, pathname, body, auth);
  // Not signed in: Better Auth answers 401 as before.
  if (account === null) return undefined;
  const check = await loadPasswordChecker();
  const message = check(password, account);
  return message === undefined ? undefined : { field, message };
}

/** The account whose password is being set: from the body, the session or the reset token. */
async function accountOf(
  req: FastifyRequest,
  pathname: string,
  body: Record<string, unknown>,
  auth: Auth,
): Promise<PasswordContext | null> {
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  if (pathname === "/api/auth/sign-up/email")
    return { email: str(body.email), name: str(body.name) };
  if (pathname === "/api/auth/change-password") {
    const headers = new Headers();
    if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
    const session = await auth.api.getSession({ headers }).catch(() => null);
    return session ? { email: session.user.email, name: session.user.name } : null;
  }
  const token = str(body.token) ?? str((req.query as Record<string, unknown> | undefined)?.token);
  // No valid link: Better Auth answers that (invalid_token) as before.
  if (!token || token.length > 200) return null;
  const ctx = await auth.$context;
  const verification = await ctx.internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!verification) return null;
  const user = await ctx.internalAdapter.findUserById(verification.value);
  return { email: user?.email, name: user?.name };
}
