import { createHmac, timingSafeEqual } from "node:crypto";
import { type SQL, type SQLWrapper } from "drizzle-orm";
import { sql } from "../db/sql";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { SessionUser } from "../http/request-context";
import { mayNameStatements } from "../db/prepared";

// Better Auth's session cookie (prefixed with __Secure- when cookies are Secure). In production
// only the prefixed name counts: a browser sets a __Secure- cookie only over HTTPS, so a plain-HTTP
// page or a sibling subdomain cannot plant one.
const SECURE_COOKIE_NAME = "__Secure-better-auth.session_token";
const COOKIE_NAMES = ["better-auth.session_token", SECURE_COOKIE_NAME];

/**
 * Whether a request carries Better Auth's session cookie (plain or `__Secure-`), signed in or not:
 * only then can what it is shown depend on who it is (a company's prices, say).
 */
export const hasSessionCookie = (cookie: string | undefined) =>
  // The plain name is part of the __Secure- one.
  cookie !== undefined && cookie.includes(`${COOKIE_NAMES[0]}=`);

/**
 * Reads the caller from Better Auth's session cookie on every API call: the cookie's HMAC is
 * checked with the auth secret, then one prepared query finds the live session and its user.
 * This is what `auth.api.getSession` does, minus its endpoint machinery and second query; it is
 * the hot path of every signed-in request (docs/decisions/002-session-reader.md). Sessions stay in
 * the database, so a removed user or a signed-out session is refused at once.
 */
export function createSessionReader(
  pool: pg.Pool,
  secret: string,
  opts: { production?: boolean; absoluteSeconds?: number } = {},
) {
  const { production = false, absoluteSeconds = DEFAULT_ABSOLUTE_SECONDS } = opts;
  // A named statement is parsed once per connection; behind a transaction pooler the next call
  // may land on another server connection, so it is not named there (db/prepared.ts).
  const name = mayNameStatements(pool) ? "session-user" : undefined;
  return async (cookieHeader: string | undefined): Promise<SessionUser | null> => {
    const token = cookieHeader ? verifiedToken(cookieHeader, secret, production) : undefined;
    if (!token) return null;
    const { rows } = await pool.query<SessionUser>({
      name,
      text: SESSION_USER_TEXT,
      values: [token, absoluteSeconds],
    });
    const u = rows[0];
    return u ? { ...u, role: u.role === "admin" ? "admin" : "user" } : null;
  };
}

const DEFAULT_ABSOLUTE_SECONDS = 30 * 24 * 3600;

/**
 * The session `s` of `token` is live: its idle limit (expires_at, which Better Auth moves on
 * while the session is used) and its absolute limit (from sign-in, never moved). One condition
 * for the reader and for `stillSignedInSql`, so the two cannot drift apart.
 */
const liveSession = (token: SQLWrapper | string, absoluteSeconds: SQLWrapper | number) => sql`
  s.token = ${token} and s.expires_at > now()
  and s.created_at > now() - make_interval(secs => ${absoluteSeconds})`;

/** The reader's statement, as text once: its values are the token ($1) and the absolute limit ($2). */
const SESSION_USER_TEXT = new PgDialect().sqlToQuery(sql`
  select u.id, s.id as "sessionId", u.email, u.name, u.role,
         u.two_factor_enabled as "twoFactorEnabled", s.second_factor as "secondFactor",
         u.email_verified as "emailVerified"
    from session s join "user" u on u.id = s.user_id
   where ${liveSession(sql.placeholder("token"), sql.placeholder("absoluteSeconds"))}`).sql;

/**
 * True while the session of `token` is live by the reader's own limits (idle and absolute) and
 * belongs to `userId`, who is not an admin: what `createSessionReader` would find, for a caller
 * answered from memory, asked inside the action's statement instead of in a read of its own
 * (docs/decisions/002-session-reader.md, "Placements check the session in their own statement").
 */
export const stillSignedInSql = (
  token: string,
  userId: string,
  absoluteSeconds = DEFAULT_ABSOLUTE_SECONDS,
): SQL => sql`exists (
  select 1 from session s join "user" u on u.id = s.user_id
   where ${liveSession(token, absoluteSeconds)} and s.user_id = ${userId} and u.role <> 'admin')`;

/**
 * Ends the caller's session when it is older than the absolute lifetime, before Better Auth's own
 * endpoints see it: Better Auth keeps a used session alive (its idle limit moves on), so without
 * this its get-session, change-password or sign-in-again paths would still accept it.
 */
export function createAgedSessionEnder(
  pool: pg.Pool,
  secret: string,
  opts: { production?: boolean; absoluteSeconds?: number } = {},
) {
  const { production = false, absoluteSeconds = DEFAULT_ABSOLUTE_SECONDS } = opts;
  return async (cookieHeader: string | undefined): Promise<void> => {
    const token = cookieHeader ? verifiedToken(cookieHeader, secret, production) : undefined;
    if (!token) return;
    await pool.query(
      "delete from session where token = $1 and created_at <= now() - make_interval(secs => $2)",
      [token, absoluteSeconds],
    );
  };
}

/**
 * The session token from a cookie signed as better-call does: `token.base64(HMAC-SHA256)`.
 * A request carrying two session cookies is refused (no token) rather than trusting the first:
 * the extra one could have been planted (cookie tossing).
 */
export function verifiedToken(
  cookieHeader: string,
  secret: string,
  production = false,
): string | undefined {
  const names = production ? [SECURE_COOKIE_NAME] : COOKIE_NAMES;
  const parts = cookieHeader.split(";").filter((part) => {
    const eq = part.indexOf("=");
    return eq >= 0 && names.includes(part.slice(0, eq).trim());
  });
  if (parts.length !== 1) return undefined;
  for (const part of parts) {
    const eq = part.indexOf("=");
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
    const dot = value.lastIndexOf(".");
    if (dot < 1) return undefined;
    const token = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64"));
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : undefined;
  }
  return undefined;
}
