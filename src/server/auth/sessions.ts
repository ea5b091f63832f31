import { and, desc, eq, gt, ne } from "drizzle-orm";
import { sql } from "../db/sql";
import type { ActiveSession } from "../../contract/auth";
import type { Db } from "../db/database";
import { session } from "./tables";
import { notFound } from "../errors";

/**
 * The signed-in browsers of one account: listed for its owner, who may end any of them.
 * A session counts while it is within both limits: the idle one (`expires_at`, renewed by
 * Better Auth while used) and the absolute one (sign-in time + `absoluteSeconds`).
 */
export function createSessionService(db: Db, opts: { absoluteSeconds: number }) {
  const live = (userId: string) =>
    and(
      eq(session.userId, userId),
      gt(session.expiresAt, sql`now()`),
      gt(session.createdAt, sql`now() - make_interval(secs => ${opts.absoluteSeconds})`),
    );

  return {
    async list(userId: string, currentSessionId: string): Promise<ActiveSession[]> {
      const rows = await db
        .select()
        .from(session)
        .where(live(userId))
        .orderBy(desc(session.updatedAt), desc(session.createdAt));
      return rows.map((s) => ({
        id: s.id,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.updatedAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        endsBy: new Date(s.createdAt.getTime() + opts.absoluteSeconds * 1000).toISOString(),
        device: describeUserAgent(s.userAgent),
        ipAddress: s.ipAddress || null,
        current: s.id === currentSessionId,
      }));
    },

    /** Ends one of the account's sessions (another account's is "not found", as is a gone one). */
    async end(userId: string, sessionId: string): Promise<void> {
      const ended = await db
        .delete(session)
        .where(and(eq(session.id, sessionId), eq(session.userId, userId)))
        .returning({ id: session.id });
      if (ended.length === 0) throw notFound("This session has already ended");
    },

    /** "Sign out everywhere else": every session of the account but the caller's. */
    endOthers: (userId: string, currentSessionId: string) =>
      endOtherSessions(db, userId, currentSessionId),
  };
}

/** Ends every session of the account but `keepSessionId`; answers how many ended. */
export async function endOtherSessions(
  db: Db,
  userId: string,
  keepSessionId: string,
): Promise<number> {
  const ended = await db
    .delete(session)
    .where(and(eq(session.userId, userId), ne(session.id, keepSessionId)))
    .returning({ id: session.id });
  return ended.length;
}

export type SessionService = ReturnType<typeof createSessionService>;

const browsers: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrom(e|ium)\/|CriOS\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const systems: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** A short, readable name for a browser from its User-Agent ("Firefox on Android"). */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown browser";
  const browser = browsers.find(([re]) => re.test(userAgent))?.[1];
  const system = systems.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : "Unknown browser");
}
