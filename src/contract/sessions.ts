import { z } from "zod";
import { text } from "./text";

/** One signed-in browser of the caller's account (My Profile → "Where you are signed in"). */
export const activeSessionSchema = z.object({
  id: z.string(),
  /** When this sign-in happened. */
  createdAt: z.iso.datetime(),
  /** When the session was last renewed (at most a day behind its last use). */
  lastSeenAt: z.iso.datetime(),
  /** When it ends if unused (the idle limit); it also ends at `endsBy` whatever happens. */
  expiresAt: z.iso.datetime(),
  /** The absolute limit: sign-in time plus SESSION_ABSOLUTE_HOURS. */
  endsBy: z.iso.datetime(),
  /** "Chrome on Windows", "Safari on iPhone", … or "Unknown browser". */
  device: z.string(),
  /** The client address as recorded at sign-in (through the trusted proxies only). */
  ipAddress: z.string().nullable(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const activeSessionListSchema = z.object({ sessions: z.array(activeSessionSchema) });
export type ActiveSessionList = z.infer<typeof activeSessionListSchema>;

export const sessionIdParamsSchema = z.object({
  id: text().regex(/^[A-Za-z0-9_-]{1,100}$/, { message: "Malformed session id" }),
});

/**
 * `DELETE /api/user/sessions?except=current`: every session but the caller's. The query says so
 * explicitly, so that no stray request signs someone out everywhere.
 */
export const endOtherSessionsQuerySchema = z.object({
  except: z.literal("current", { message: "Say which sessions stay: except=current" }),
});

/** How many other sessions were ended. */
export const endedSessionsSchema = z.object({ ended: z.number().int().min(0) });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;
