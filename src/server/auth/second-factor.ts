import { createAuthMiddleware, getSessionFromCtx, APIError } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString, symmetricDecrypt } from "better-auth/crypto";
import { TWO_FACTOR_ERROR_CODES } from "better-auth/plugins/two-factor";
import { and, eq, like } from "drizzle-orm";
import type { Db } from "../db/database";
import { sql } from "../db/sql";
import { session, totpStepTaken, twoFactor, verification } from "./tables";
import { endOtherSessions } from "./sessions";
import { matchingStep } from "./totp";

/**
 * A second factor that cannot be skipped (penetration test of 75cca6d, finding 4):
 * - a social or OIDC sign-in of an account with 2FA stops halfway, as a password sign-in does
 *   (Better Auth's two-factor plugin asks for the code after a password only): the session it
 *   opened is removed and the browser goes to the code step of /login;
 * - a session records that a second factor was given (`session.second_factor`), and the admin
 *   2FA rule checks the session, not the account (guards.ts);
 * - turning 2FA off and new backup codes need a current code, besides the password;
 * - turning 2FA on or off ends the account's other sessions.
 * Fifth outside review (issue 49, finding 1: the secret for the password alone):
 * - the authenticator's secret (`get-totp-uri`, or a new one from `enable`) is given for the
 *   password alone only while 2FA is being turned on; once it is on, a current code too;
 * - a code is taken once: it signs in once, and opens each action that asks for one once (the
 *   newest time-step taken, per account and use, in `totp_step_taken`), so a code seen over a
 *   shoulder or in a proxy's log cannot sign in again;
 * - a sign-in that a trusted device ("trust this device" after a code) let through without a
 *   code counts as a second-factor session; turning 2FA on or off forgets every trusted device.
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
/** Paths that give out the authenticator's secret: with a current code once 2FA is on. */
const GIVES_SECRET = new Set(["/two-factor/get-totp-uri", "/two-factor/enable"]);
export const CODE_USED_MESSAGE =
  "This code has been used already. Wait for the next code in your authenticator app and enter that one.";
/** The use of a code that signs in (`totp_step_taken.purpose`); actions use their path. */
const SIGN_IN = "sign-in";
/** Better Auth's two-factor plugin keeps a trusted device as a verification row of this prefix. */
const TRUSTED_DEVICE_PREFIX = "trust-device-";

/** What a Better Auth hook gets (the handler's argument of createAuthMiddleware). */
type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Whether the caller turned 2FA on in this request (the plugin's first verified code). */
const enabling = new WeakSet<object>();

export function secondFactorHooks(db: Db) {
  /**
   * Takes the code `code` of `userId`'s authenticator for `purpose`: "taken" when it is a current
   * code whose time-step is newer than the last taken for that use (it is recorded at once, in
   * one statement, so two requests with one code cannot both pass); "used" when it is current
   * but was taken already; "wrong" when it is no current code; "none" without a TOTP secret.
   */
  const takeCode = async (
    ctx: HookContext,
    userId: string,
    purpose: string,
    code: string,
  ): Promise<"taken" | "used" | "wrong" | "none"> => {
    const [row] = await db
      .select({ secret: twoFactor.secret })
      .from(twoFactor)
      .where(eq(twoFactor.userId, userId));
    if (!row) return "none";
    const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret });
    const step = matchingStep(Buffer.from(secret), code);
    if (step === undefined) return "wrong";
    const taken = await db
      .insert(totpStepTaken)
      .values({ userId, purpose, step })
      .onConflictDoUpdate({
        target: [totpStepTaken.userId, totpStepTaken.purpose],
        set: { step },
        setWhere: sql`${totpStepTaken.step} < ${step}`,
      })
      .returning({ step: totpStepTaken.step });
    return taken.length > 0 ? "taken" : "used";
  };

  /** A current code, not taken before for this action (400 without one, 401 for a wrong one). */
  const requireCurrentCode = async (ctx: HookContext, userId: string | undefined) => {
    const code = (ctx.body as { code?: unknown } | undefined)?.code;
    if (typeof code !== "string" || !/^\d{6}$/.test(code.trim())) {
      throw new APIError("BAD_REQUEST", {
        code: "CODE_REQUIRED",
        message: CODE_REQUIRED_MESSAGE,
      });
    }
    // Without a session the plugin answers 401 itself.
    if (!userId) return;
    const result = await takeCode(ctx, userId, ctx.path, code.trim());
    if (result === "none")
      throw APIError.from("BAD_REQUEST", TWO_FACTOR_ERROR_CODES.TOTP_NOT_ENABLED);
    if (result === "wrong")
      throw APIError.from("UNAUTHORIZED", TWO_FACTOR_ERROR_CODES.INVALID_CODE);
    if (result === "used") throw codeUsed();
  };

  const before = createAuthMiddleware(async (ctx) => {
    if (ctx.path === "/two-factor/verify-totp") {
      const current = await getSessionFromCtx(ctx);
      if (current && !current.user.twoFactorEnabled && ctx.request) enabling.add(ctx.request);
      // A sign-in's code step has no session yet: the account is the challenge's.
      const userId = current?.user.id ?? (await challengedUser(ctx));
      const code = (ctx.body as { code?: unknown } | undefined)?.code;
      if (!userId || typeof code !== "string") return;
      // A wrong code is left to the plugin, which counts it against the challenge and account.
      const result = await takeCode(ctx, userId, current ? ctx.path : SIGN_IN, code.trim());
      if (result === "used") throw codeUsed();
      return;
    }
    if (!NEEDS_CURRENT_CODE.has(ctx.path) && !GIVES_SECRET.has(ctx.path)) return;
    const current = await getSessionFromCtx(ctx);
    if (NEEDS_CURRENT_CODE.has(ctx.path) || current?.user.twoFactorEnabled) {
      await requireCurrentCode(ctx, current?.user.id);
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
      // Only a path of ours, and not one that reads as another site (`//evil.test`).
      const from =
        returnTo.origin === new URL(ctx.context.baseURL).origin &&
        !returnTo.pathname.startsWith("//")
          ? returnTo.pathname
          : "/";
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
        await forgetTrustedDevices(db, opened.user.id);
      }
      return;
    }
    if (ctx.path === "/sign-in/email" && opened?.user.twoFactorEnabled) {
      // The plugin's own after-hook runs after this one: it removes the session and asks for the
      // code, unless the browser shows a trusted device (given for a code, "trust this device"),
      // when the session stays. Marked here, only a session that stays counts.
      await db.update(session).set({ secondFactor: true }).where(eq(session.id, opened.session.id));
      return;
    }
    if (ctx.path === "/two-factor/disable" && opened) {
      await endOtherSessions(db, opened.user.id, opened.session.id);
      await forgetTrustedDevices(db, opened.user.id);
    }
  };

  return { before, after };
}

const codeUsed = () =>
  new APIError("UNAUTHORIZED", { code: "CODE_ALREADY_USED", message: CODE_USED_MESSAGE });

/** The account a sign-in's code step is for: the plugin's challenge cookie names it. */
async function challengedUser(ctx: HookContext): Promise<string | undefined> {
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return undefined;
  const challenge = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return challenge?.value;
}

/** Every browser of the account trusted to skip the code must give one again. */
async function forgetTrustedDevices(db: Db, userId: string): Promise<void> {
  await db
    .delete(verification)
    .where(
      and(
        eq(verification.value, userId),
        like(verification.identifier, `${TRUSTED_DEVICE_PREFIX}%`),
      ),
    );
}
