import { AsyncLocalStorage } from "node:async_hooks";
import type { Database, Db } from "./database";
import { postgresError } from "./postgres-errors";

/**
 * Catalog reads from a streaming replica (DATABASE_READ_URL; docs/operations.md "A read
 * replica"). Only the public catalog's reads (the list, a product, search suggestions, part pages)
 * are ever sent there, and only inside `ReplicaReads.run`; everything else, every write and every
 * read outside `run`, goes to the primary. Inside `run` the replica is used when all of these hold:
 *
 * - it answered the last lag check (a bounded query) and is in recovery;
 * - it has replayed everything the primary had written up to at most `maxLagMs` ago;
 * - it has replayed everything up to the last catalog change this process heard of (its own write
 *   or another process's NOTIFY): a NOTIFY comes from the primary and may arrive before the
 *   replica replayed the change, and the read cache must not be refilled with what it had before;
 * - the caller wrote nothing within `ownWritesMs` (the `OWN_WRITES_COOKIE`): an admin reads their
 *   own writes, on whichever node their next request lands.
 *
 * The lag is measured, not asked of the replica's clock: each check reads the primary's WAL
 * position (`pg_current_wal_lsn()`), then the replica's replayed position
 * (`pg_last_wal_replay_lsn()`). Once the replica has replayed past a position the primary had at
 * time t, it has everything committed before t: `caughtUpTo` is the latest such t.
 */
export interface ReplicaReads {
  /** The catalog's database: the replica inside `run` when the replica may be used, else the primary. */
  readonly db: Db;
  /**
   * A reader made twice, on each database (one that prepares its statements when made, as the
   * part pages do), used as the one the current read goes to.
   */
  readers<T extends object>(make: (db: Db) => T): T;
  /**
   * Runs `read` with the catalog's reads on the replica if it may be used for this caller, else
   * on the primary; a read the replica fails (away, or a query cancelled by its recovery) is run
   * again on the primary.
   */
  run<T>(req: { headers: { cookie?: string } }, read: () => Promise<T>): Promise<T>;
  /** Whether the caller wrote within the window: their reads skip the shared read cache. */
  readsOwnWrites(req: { headers: { cookie?: string } }): boolean;
  /** The Set-Cookie value that sends the caller's reads to the primary for the window. */
  ownWritesCookie(now?: number): string;
  /** Told of each read `run` made, by the database it went to (the metrics count them). */
  onRead: (database: "primary" | "replica") => void;
  /** A catalog change was heard: reads wait for the replica to replay it. */
  changed(): void;
  /** What the last checks found (tests and metrics). */
  state(): ReplicaState;
  /** Runs a lag check now and waits for it (tests). */
  check(): Promise<ReplicaState>;
  close(): Promise<void>;
}

export interface ReplicaState {
  configured: boolean;
  /** The replica answered the last check and is a standby in recovery. */
  healthy: boolean;
  /** How far behind the primary the replica was at the last check, ms (null: unknown). */
  lagMs: number | null;
  /** Reads inside `run` go to the replica now (for a caller with no recent write). */
  usable: boolean;
}

export interface ReplicaSettings {
  maxLagMs: number;
  ownWritesMs: number;
  secureCookie: boolean;
}

/** The cookie that says the caller wrote at (its value) ms since the epoch. */
export const OWN_WRITES_COOKIE = "pw_wrote";

/** Each lag check's two queries give up after this long (the replica then counts as away). */
const CHECK_TIMEOUT_MS = 1_000;

const context = new AsyncLocalStorage<{ replica: boolean; ownWrites?: boolean }>();

/** Whether the read under way (inside `run`) is of a caller reading their own writes. */
export const readingOwnWrites = (): boolean => context.getStore()?.ownWrites === true;

/** No replica: every read on the primary, nothing measured, no cookie. */
export function primaryOnly(primary: Db): ReplicaReads {
  const state = { configured: false, healthy: false, lagMs: null, usable: false };
  return {
    db: primary,
    readers: (make) => make(primary),
    run: (_req, read) => read(),
    readsOwnWrites: () => false,
    ownWritesCookie: () => "",
    onRead: () => {},
    changed() {},
    state: () => state,
    check: async () => state,
    close: async () => {},
  };
}

/** Parses a WAL position ("16/B374D848") into a number that orders like it. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split("/");
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** The time a cookie header's `pw_wrote` says the caller wrote at, or undefined. */
export function wroteAt(cookie: string | undefined): number | undefined {
  const m = cookie?.match(/(?:^|;\s*)pw_wrote=(\d{1,15})(?:;|$)/);
  return m ? Number(m[1]) : undefined;
}

function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Reads through `replica` (a database opened on DATABASE_READ_URL) as the rules above allow,
 * checking its lag every `checkMs` (a quarter of the bound, at most a second) and at once after
 * each catalog change.
 */
export function replicaReads(
  primary: Database,
  replica: Database,
  settings: ReplicaSettings,
  log: { warn(msg: string): void },
  clock: () => number = Date.now,
): ReplicaReads {
  /** The primary's positions at the times they were read, oldest first. */
  let samples: { at: number; lsn: bigint }[] = [];
  let caughtUpTo = Number.NEGATIVE_INFINITY;
  let healthy = false;
  let lastChangeAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<ReplicaState> | undefined;
  let again = false;
  let closed = false;
  let warned = false;

  const lagMs = () => (healthy ? Math.max(0, clock() - caughtUpTo) : null);
  const usable = () =>
    healthy && clock() - caughtUpTo <= settings.maxLagMs && caughtUpTo >= lastChangeAt;
  const state = (): ReplicaState => ({
    configured: true,
    healthy,
    lagMs: lagMs(),
    usable: usable(),
  });

  async function measure(): Promise<void> {
    const at = clock();
    try {
      const p = await bounded(
        primary.pool.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn"),
        CHECK_TIMEOUT_MS,
      );
      samples.push({ at, lsn: lsnValue(p.rows[0]!.lsn) });
      if (samples.length > 1000) samples = samples.slice(-500);
      const r = await bounded(
        replica.pool.query<{ lsn: string | null; recovery: boolean }>(
          "select pg_last_wal_replay_lsn()::text as lsn, pg_is_in_recovery() as recovery",
        ),
        CHECK_TIMEOUT_MS,
      );
      const row = r.rows[0]!;
      if (!row.recovery || row.lsn === null) throw new Error("it is not a standby in recovery");
      const replayed = lsnValue(row.lsn);
      // The latest sample the replica has replayed past; the older ones are of no more use.
      let i = samples.length - 1;
      while (i >= 0 && samples[i]!.lsn > replayed) i--;
      if (i >= 0) {
        caughtUpTo = Math.max(caughtUpTo, samples[i]!.at);
        samples = samples.slice(i);
      }
      healthy = true;
      warned = false;
    } catch (err) {
      healthy = false;
      if (!warned) log.warn(`read replica: not used (${(err as Error).message})`);
      warned = true;
    }
  }

  function check(): Promise<ReplicaState> {
    if (checking) {
      again = true;
      return checking;
    }
    checking = (async () => {
      do {
        again = false;
        await measure();
      } while (again && !closed);
      checking = undefined;
      return state();
    })();
    return checking;
  }

  const every = Math.max(50, Math.min(1_000, settings.maxLagMs / 4));
  const timer = setInterval(() => void check(), every);
  timer.unref();
  void check();

  const routed = new Proxy(primary.db, {
    get(_target, prop) {
      const db = context.getStore()?.replica ? replica.db : primary.db;
      const value: unknown = Reflect.get(db, prop, db);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(db) : value;
    },
  });

  const readsOwnWrites = (req: { headers: { cookie?: string } }) => {
    const at = wroteAt(req.headers.cookie);
    return at !== undefined && clock() - at < settings.ownWritesMs && at <= clock() + 60_000;
  };

  const self: ReplicaReads = {
    db: routed,
    readers<T extends object>(make: (db: Db) => T): T {
      const [onPrimary, onReplica] = [make(primary.db), make(replica.db)];
      return new Proxy(onPrimary, {
        get: (_target, prop) =>
          Reflect.get(context.getStore()?.replica ? onReplica : onPrimary, prop) as unknown,
      });
    },
    async run(req, read) {
      if (readsOwnWrites(req)) {
        self.onRead("primary");
        return context.run({ replica: false, ownWrites: true }, read);
      }
      if (!usable()) {
        self.onRead("primary");
        return context.run({ replica: false }, read);
      }
      try {
        const answer = await context.run({ replica: true }, read);
        self.onRead("replica");
        return answer;
      } catch (err) {
        if (!replicaFailure(err)) throw err;
        healthy = false;
        void check();
        self.onRead("primary");
        return context.run({ replica: false }, read);
      }
    },
    onRead: () => {},
    readsOwnWrites,
    ownWritesCookie(now = clock()) {
      const maxAge = Math.ceil(settings.ownWritesMs / 1000);
      const secure = settings.secureCookie ? "; Secure" : "";
      return `${OWN_WRITES_COOKIE}=${now}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`;
    },
    changed() {
      lastChangeAt = clock();
      void check();
    },
    state,
    check,
    async close() {
      closed = true;
      clearInterval(timer);
      await checking;
      await replica.close();
    },
  };
  return self;
}

/**
 * Whether a read failed because of the replica rather than the read: the connection (no SQLSTATE,
 * or class 08 / 57P), a query cancelled by recovery (40001 on a standby), or a standby that cannot
 * serve it. An HttpError or a bad query is the read's own, and the primary would fail it too.
 */
function replicaFailure(err: unknown): boolean {
  const pg = postgresError(err);
  if (pg) return /^(08|57P|40001|25006|53)/.test(pg.code);
  return (err as { statusCode?: unknown }).statusCode === undefined;
}

/**
 * An admin's successful write (any method but GET, HEAD and OPTIONS) sets `OWN_WRITES_COOKIE`:
 * their catalog reads then go to the primary, past the read cache, for the window, on every node.
 */
export function ownWritesHook(replica: ReplicaReads) {
  return (
    req: { method: string; user?: { role: string } | null },
    reply: {
      statusCode: number;
      getHeader(name: string): unknown;
      header(name: string, value: string | string[]): unknown;
    },
    payload: unknown,
    done: (err: null, payload: unknown) => void,
  ) => {
    const write = !["GET", "HEAD", "OPTIONS"].includes(req.method);
    if (write && reply.statusCode < 400 && req.user?.role === "admin") {
      const set = reply.getHeader("set-cookie");
      const cookies = set === undefined ? [] : Array.isArray(set) ? set.map(String) : [String(set)];
      reply.header("set-cookie", [...cookies, replica.ownWritesCookie()]);
    }
    done(null, payload);
  };
}
