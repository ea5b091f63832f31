import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { twoFactor as twoFactorPlugin } from "better-auth/plugins/two-factor";
import { and, eq } from "drizzle-orm";
import { MIN_PASSWORD_LENGTH } from "../../contract/auth";
import { MAX_IMAGE_URL_LENGTH, MAX_NAME_LENGTH } from "../../contract/constants";
import type { OAuthClient, OidcClient } from "../config";
import type { Db } from "../db/database";
import { clearBounce } from "../email-bounces/service";
import { secondFactorHooks } from "./second-factor";
import { account, session, twoFactor, verification } from "./tables";
import { user } from "../users/tables";
import { clearProfile, promoteListedAdmin } from "../users/service";

export const OIDC_PROVIDER_ID = "oidc";

/** How long a password-reset link works. */
export const RESET_PASSWORD_TOKEN_SECONDS = 60 * 60;
/** How long an email-verification link works. */
export const VERIFY_EMAIL_TOKEN_SECONDS = 24 * 60 * 60;

interface MailUser {
  email: string;
  name: string;
}

/** The account emails Better Auth asks for; each only queues the message (mail/account-mail.ts). */
export interface AuthMail {
  passwordReset(user: MailUser, token: string): Promise<void>;
  verifyEmail(user: MailUser, token: string): Promise<void>;
  passwordChanged(user: MailUser): Promise<void>;
  /** Someone tried to sign up with the address of this existing account. */
  signUpAttempt(user: MailUser): Promise<void>;
}

export interface AuthOptions {
  db: Db;
  publicUrl: string;
  /** The origins of the store's own pages (http/cross-site.ts `storeOrigins`); PUBLIC_URL's by default. */
  trustedOrigins?: string[];
  secret: string;
  production: boolean;
  adminEmails: ReadonlySet<string>;
  google?: OAuthClient;
  github?: OAuthClient;
  oidc?: OidcClient;
  mail: AuthMail;
  /** Where Better Auth's own log lines go (the request logger). */
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Better Auth: email/password and social sign-in, sessions in our database (httpOnly cookies).
 * Roles are ours (`user.role`); Better Auth's admin plugin is not used, so that every admin action
 * goes through our own routes and their rules (see docs/decisions/001-roles-without-admin-plugin.md).
 */
export function createAuth(opts: AuthOptions) {
  const isAdminEmail = (email: string) => opts.adminEmails.has(email.toLowerCase());
  const promote = (userId: string) => promoteListedAdmin(opts.db, userId);
  const secondFactor = secondFactorHooks(opts.db);
  const auth = betterAuth({
    appName: "PartsWorks",
    baseURL: opts.publicUrl,
    // Outside production the loopback spellings too (127.0.0.1, [::1]), as our own check allows.
    trustedOrigins: opts.trustedOrigins,
    basePath: "/api/auth",
    secret: opts.secret,
    telemetry: { enabled: false },
    logger: {
      level: "warn",
      log: (level, message, ...args) =>
        level === "error"
          ? opts.log.error({ details: args }, `auth: ${message}`)
          : opts.log.warn({ details: args }, `auth: ${message}`),
    },
    database: drizzleAdapter(opts.db, {
      provider: "pg",
      schema: { user, session, account, verification, twoFactor },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: true,
      // "Forgot password?": a single-use link (Better Auth consumes the token), then every
      // session of the account ends.
      sendResetPassword: ({ user: u, token }) => opts.mail.passwordReset(u, token),
      resetPasswordTokenExpiresIn: RESET_PASSWORD_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: ({ user: u }) => opts.mail.passwordChanged(u),
    },
    // A link on sign-up proves the address. Unverified accounts may still browse, sign in and
    // order (docs/accounts.md).
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_EMAIL_TOKEN_SECONDS,
      sendVerificationEmail: ({ user: u, token }) => opts.mail.verifyEmail(u, token),
      // A followed link proves mail reaches the address: it no longer counts as bouncing.
      afterEmailVerification: async (u) => {
        await clearBounce(opts.db, u.email);
      },
    },
    socialProviders: {
      ...(opts.google && { google: { ...opts.google, prompt: "select_account" as const } }),
      ...(opts.github && { github: opts.github }),
    },
    plugins: [
      // TOTP with backup codes (docs/accounts.md, "Admin protection"); sign-in then asks for a code.
      twoFactorPlugin({ issuer: "PartsWorks" }),
      ...(opts.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: `${opts.oidc.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
                  clientId: opts.oidc.clientId,
                  clientSecret: opts.oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
    user: {
      additionalFields: {
        role: { type: "string", input: false, defaultValue: "user", required: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    // Our own limiter (rate-limit.ts) covers sign-in and sign-up, per IP and per email, in the
    // database; Better Auth's would be a second, per-process one.
    rateLimit: { enabled: false },
    // Errors that are not Better Auth's own answers (a database error: an account removed while
    // it signs in, say) reach our error handler, which answers them like every other route.
    onAPIError: { throw: true },
    // Name and email are read-only (SPEC section 5); accounts are removed by admins only.
    disabledPaths: ["/update-user", "/change-email", "/delete-user"],
    advanced: {
      useSecureCookies: opts.production,
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
    },
    hooks: {
      before: secondFactor.before,
      // A changed password is told to the account's address (a reset says so in onPasswordReset).
      after: createAuthMiddleware(async (ctx) => {
        await secondFactor.after(ctx);
        if (ctx.path === "/sign-up/email") {
          // The answer tells the address is taken (docs/accounts.md says why); its owner is told.
          const refused = ctx.context.returned as { body?: { code?: string } } | undefined;
          const email = (ctx.body as { email?: unknown } | undefined)?.email;
          if (
            isAPIError(refused) &&
            refused.body?.code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" &&
            typeof email === "string"
          ) {
            const owner = await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase());
            if (owner) await opts.mail.signUpAttempt(owner.user);
          }
          return;
        }
        if (ctx.path !== "/change-password") return;
        const returned = ctx.context.returned as { user?: MailUser } | undefined;
        if (!returned || isAPIError(returned) || !returned.user) return;
        await opts.mail.passwordChanged(returned.user);
      }),
    },
    // A social identity links to an existing account of the same address only when its provider
    // says the address is verified (Better Auth's rule); an unverified local account may be
    // linked too, and is then reclaimed (account.create below).
    account: { accountLinking: { requireLocalEmailVerified: false } },
    databaseHooks: {
      account: {
        create: {
          // Reclaim: a verified social identity linked to an account whose address was never
          // verified, and that has a password, takes the account over. The password (whoever
          // typed it had not proven the address) stops working, every session of it ends and
          // the profile fields typed by that person are cleared. Better Auth then marks the
          // address verified and signs the social identity in.
          // A before-hook: Better Auth marks the address verified right after linking, and
          // runs after-hooks later, when the account can no longer be told apart from a
          // verified one that links a second sign-in method.
          before: async (linked) => {
            if (linked.providerId === "credential") return;
            const [owner] = await opts.db
              .select({ emailVerified: user.emailVerified })
              .from(user)
              .where(eq(user.id, linked.userId));
            if (!owner || owner.emailVerified) return;
            await opts.db.transaction(async (tx) => {
              const removed = await tx
                .delete(account)
                .where(and(eq(account.userId, linked.userId), eq(account.providerId, "credential")))
                .returning({ id: account.id });
              if (removed.length === 0) return;
              await tx.delete(session).where(eq(session.userId, linked.userId));
              await clearProfile(tx, linked.userId);
            });
          },
        },
      },
      user: {
        create: {
          // ADMIN_EMAILS promotes only a proven address: a password sign-up starts unverified
          // (a customer until its link is followed); a social identity counts as verified only
          // when its provider says so.
          before: async (data) => ({
            data: {
              ...data,
              ...boundedProfile(data),
              role: data.emailVerified === true && isAdminEmail(data.email) ? "admin" : "user",
            },
          }),
        },
        update: {
          // A provider's profile can be longer than our limits: cut it rather than fail the sign-in.
          before: async (data) => ({ data: { ...data, ...boundedProfile(data) } }),
          // Following the verification link promotes a listed address.
          after: async (u) => {
            if (u.emailVerified && isAdminEmail(u.email)) await promote(u.id);
          },
        },
      },
      session: {
        create: {
          // ADMIN_EMAILS also promotes an existing verified account when it signs in.
          after: async (s) => {
            const [u] = await opts.db
              .select({ email: user.email, emailVerified: user.emailVerified })
              .from(user)
              .where(eq(user.id, s.userId));
            if (u?.emailVerified && isAdminEmail(u.email)) await promote(s.userId);
          },
        },
      },
    },
  });
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** Name and image within the database's limits (email sign-up already refuses longer ones). */
function boundedProfile(data: { name?: unknown; image?: unknown }) {
  const out: { name?: string; image?: string | null } = {};
  if (typeof data.name === "string") out.name = data.name.slice(0, MAX_NAME_LENGTH);
  if (typeof data.image === "string" && data.image.length > MAX_IMAGE_URL_LENGTH) out.image = null;
  return out;
}
