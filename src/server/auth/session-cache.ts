import type { SQL } from "drizzle-orm";
import type { SessionUser } from "../http/request-context";

/** How long a session read is trusted without a word from the database, at most. */
export const SESSION_CACHE_TTL_MS = 30_000;

export interface SessionCacheOptions {
  ttlMs?: number;
  /** Sessions kept, at most: past it the cache starts again empty. */
  maxEntries?: number;
  now?: () => number;
  /**
   * What a caller answered from memory carries for an action to check in its own statement
   * (`SessionUser.stillSignedIn`; `stillSignedInSql`).
   */
  stillSignedIn?: (token: string, userId: string) => SQL;
}

/**
 * Session reads kept in memory, for two kinds of route:
 * - the catalog list's company prices (docs/pricing.md): a buyer's list page
 *   then costs no database read;
 * - the placing routes, an order and a checkout (`guards.customerPlacing`). They trust memory
 *   only for who the caller was. Whether the session is still live and its user still a customer
 *   is asked again in the placement's first statement (`stillSignedIn`), so a signed-out or
 *   promoted caller orders nothing, with no read of its own (docs/decisions/002-session-reader.md).
 *
 * What a session says is the same until it ends or its user changes; both say so on the
 * catalog's channel (migration 0039: a session deleted, a user changed or deleted → `sessions`),
 * and every process's listener then clears its cache: a signed-out, revoked or removed caller
 * gets the shared list from the next request its process hears of it on (milliseconds), exactly
 * as a member removed from their company does (migration 0034). While the listener is not proven
 * to hear (`setListening(false)`), nothing is kept and every request reads the session, as
 * before; `ttlMs` bounds an entry's life regardless. Every other action and read still reads the
 * session itself (guards.ts).
 */
export class SessionCache {
  private entries = new Map<string, { user: SessionUser | null; until: number }>();
  /**
   * Cookie headers whose signature was checked, and the token each carries: the check (an
   * HMAC) is a pure function of the header, so a header seen before is not checked again.
   * Headers that fail are not kept. At most `maxEntries` (cleared whole when full).
   */
  private tokens = new Map<string, string>();
  private listening = false;
  /** Moves on at every clear: a read that began before one is not kept. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly stillSignedIn?: (token: string, userId: string) => SQL;

  constructor(
    /** The session's token from a cookie header (checked against its signature), if any. */
    private readonly tokenOf: (cookie: string) => string | undefined,
    private readonly read: (cookie: string | undefined) => Promise<SessionUser | null>,
    opts: SessionCacheOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? SESSION_CACHE_TTL_MS;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
    this.stillSignedIn = opts.stillSignedIn;
  }

  /**
   * The caller of this cookie, from memory when a read of it is fresh (then with `stillSignedIn`,
   * when the cache was given one); else read (and kept).
   */
  user(cookie: string | undefined): Promise<SessionUser | null> {
    return this.find(cookie, true);
  }

  /**
   * The caller of this cookie for a read that acts on nothing (a catalog page's prices, the
   * market it prices in): as `user`, without `stillSignedIn`.
   */
  reader(cookie: string | undefined): Promise<SessionUser | null> {
    return this.find(cookie, false);
  }

  private async find(cookie: string | undefined, acting: boolean): Promise<SessionUser | null> {
    const token = cookie ? this.tokenIn(cookie) : undefined;
    if (!token) return null;
    if (!this.listening) return this.read(cookie);
    const kept = this.entries.get(token);
    if (kept && kept.until > this.now()) {
      const { user } = kept;
      if (!user || !acting || !this.stillSignedIn) return user;
      return { ...user, stillSignedIn: this.stillSignedIn(token, user.id) };
    }
    const generation = this.generation;
    const user = await this.read(cookie);
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(token, { user, until: this.now() + this.ttlMs });
    }
    return user;
  }

  /** The token of a cookie header, its signature checked once per header (`tokens`). */
  private tokenIn(cookie: string): string | undefined {
    const known = this.tokens.get(cookie);
    if (known !== undefined) return known;
    const token = this.tokenOf(cookie);
    if (token) {
      if (this.tokens.size >= this.maxEntries) this.tokens.clear();
      this.tokens.set(cookie, token);
    }
    return token;
  }

  /** A session ended or a user changed somewhere: forget every read. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Whether the listener hears the database; while it does not, nothing is kept. */
  setListening(listening: boolean): void {
    this.listening = listening;
    if (!listening) this.invalidate();
  }
}
