import { createAuthMiddleware, getSessionFromCtx, APIError } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/database";
import { session } from "../db/schema";
import { endOtherSessions } from "../sessions/service";

/**
 * A second factor that cannot be skipped (penetration test of 75cca6d, finding 4):
 * - a social or OIDC sign-in of an account with 2FA stops halfway, as a password sign-in does
 *   (Better Auth's two-factor plugin asks for the code after a password only): the session it
 *   opened is removed and the browser goes to the code step of /login;
 * - a session records that a second factor was given (`session.second_factor`), and the admin
 *   2FA rule checks the session, not the account (guards.ts);
 * - turning 2FA off and new backup codes need a current code, besides the password;
 * - turning 2FA on or off ends the account's other sessions.
 */

/** Better Auth's two-factor plugin: its challenge cookie and the verification rows it reads. */
const TWO_FACTOR_COOKIE = "two_factor";
const CHALLENGE_SECONDS = 600;
/** Where the browser gives the code after a social sign-in (the login page's code step). */
export const SOCIAL_TWO_FACTOR_PAGE = "/login?twoFactor=1";
export const CODE_REQUIRED_MESSAGE = "Enter a current code from your authenticator app.";

const isSocialCallback = (path: string) =>
  path.startsWith("/callback/") || path.startsWith("/oauth2/callback/");
const GIVES_SECOND_FACTOR = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);
const NEEDS_CURRENT_CODE = new Set(["/two-factor/disable", "/two-factor/generate-backup-codes"]);

/** What a Better Auth hook gets (the handler's argument of createAuthMiddleware). */
type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Whether the caller turned 2FA on in this request (the plugin's first verified code). */
const enabling = new WeakSet<object>();

export function secondFactorHooks(
  db: Db,
  verifyTotp: (code: string, headers: Headers) => Promise<void>,
) {
  const before = createAuthMiddleware(async (ctx) => {
    if (NEEDS_CURRENT_CODE.has(ctx.path)) {
      const code = (ctx.body as { code?: unknown } | undefined)?.code;
      if (typeof code !== "string" || !/^\d{6}$/.test(code.trim())) {
        throw new APIError("BAD_REQUEST", {
          code: "CODE_REQUIRED",
          message: CODE_REQUIRED_MESSAGE,
        });
      }
      await verifyTotp(code.trim(), ctx.headers ?? new Headers());
    }
    if (ctx.path === "/two-factor/verify-totp") {
      const current = await getSessionFromCtx(ctx);
      if (current && !current.user.twoFactorEnabled && ctx.request) enabling.add(ctx.request);
    }
  });

  /** Runs in the after-hook of every auth endpoint. */
  const after = async (ctx: HookContext): Promise<void> => {
    const opened = ctx.context.newSession;
    if (isSocialCallback(ctx.path) && opened?.user.twoFactorEnabled) {
      // The plugin's challenge, as after a password: the code step finds the account from it.
      deleteSessionCookie(ctx, true);
      await ctx.context.internalAdapter.deleteSession(opened.session.token);
      ctx.context.setNewSession(null);
      const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE, {
        maxAge: CHALLENGE_SECONDS,
      });
      const identifier = `2fa-${generateRandomString(20)}`;
      const expiresAt = new Date(Date.now() + CHALLENGE_SECONDS * 1000);
      await ctx.context.internalAdapter.createVerificationValue({
        value: opened.user.id,
        identifier,
        expiresAt,
      });
      await ctx.context.internalAdapter.createVerificationValue({
        value: "0",
        identifier: `2fa-attempts-${identifier}`,
        expiresAt,
      });
      await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
      // The callback answered a redirect to where the sign-in started: go there after the code.
      const redirect = ctx.context.returned as { headers?: Headers } | undefined;
      const returnTo = new URL(redirect?.headers?.get?.("location") ?? "/", ctx.context.baseURL);
      const from =
        returnTo.origin === new URL(ctx.context.baseURL).origin ? returnTo.pathname : "/";
      throw ctx.redirect(`${SOCIAL_TWO_FACTOR_PAGE}&from=${encodeURIComponent(from)}`);
    }

    if (GIVES_SECOND_FACTOR.has(ctx.path)) {
      const returned = ctx.context.returned as { token?: unknown } | undefined;
      const token =
        opened?.session.token ?? (typeof returned?.token === "string" ? returned.token : undefined);
      if (!token || returned instanceof Error) return;
      await db.update(session).set({ secondFactor: true }).where(eq(session.token, token));
      if (opened && ctx.request && enabling.has(ctx.request)) {
        await endOtherSessions(db, opened.user.id, opened.session.id);
      }
      return;
    }
    if (ctx.path === "/two-factor/disable" && opened) {
      await endOtherSessions(db, opened.user.id, opened.session.id);
    }
  };

  return { before, after };
}
