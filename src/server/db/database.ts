import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type pg from "pg";
import { inDirectTransaction } from "./direct-transaction";
import type { DatabaseTimeouts } from "../config";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { advisoryLocks } from "./advisory-locks";
import { KeepingPool } from "./keeping-pool";
import { prepareStatementsOn } from "./prepared";

export type Db = NodePgDatabase;
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** The connection string of the pool (perhaps a pooler such as PgBouncer). */
  url: string;
  /**
   * A connection string straight to PostgreSQL, for what needs a session of its own: LISTEN,
   * migrations, the mail queue, backups. The same as `url` unless DATABASE_DIRECT_URL says so.
   */
  directUrl: string;
  /** `url` goes through a transaction pooler (it differs from `directUrl`): no named
   * prepared statements, no session settings on the pool's connections. */
  pooled: boolean;
  /** Closes the pool, then stops the embedded PostgreSQL if this process started it. */
  close(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

// Beside this module: src/server/db/ when run from source, dist/server/ in the build, whose
// shared code may sit one folder down in dist/server/chunks/.
const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsFolder =
  [here, path.dirname(here)]
    .map((dir) => path.join(dir, "migrations"))
    .find((dir) => existsSync(path.join(dir, "meta", "_journal.json"))) ??
  path.join(here, "migrations");

const MIGRATION_LOCK_KEY = advisoryLocks.migrations;
// Where drizzle-kit's migrator keeps the applied migrations (we keep its table and format).
const MIGRATIONS_TABLE = `"drizzle"."__drizzle_migrations"`;

/** What a pool uses when the caller says nothing (the defaults of `config.ts`). */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 10_000,
  idleInTransactionMs: 30_000,
  lockMs: 2_000,
};

export function createDatabase(
  url: string,
  onClose?: () => Promise<void>,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
  directUrl: string = url,
): Database {
  const pooled = directUrl !== url;
  const pool = new KeepingPool({
    connectionString: url,
    max: 10,
    // Waiting for a connection, one statement, and a transaction left open are all bounded: a
    // statement past its time is cancelled by PostgreSQL and its transaction rolls back whole.
    connectionTimeoutMillis: timeouts.connectMs,
    // Sent as startup parameters, which PgBouncer refuses: behind a pooler the same settings are
    // the role's defaults in this database instead (applyPooledTimeouts, at start).
    ...(pooled
      ? {}
      : {
          statement_timeout: timeouts.statementMs,
          idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
          // A row locked for long (a stuck transaction) is waited for this long, not for the
          // whole statement timeout: the waiters give their connections back to the others.
          lock_timeout: timeouts.lockMs,
        }),
  });
  // A client that loses its connection must not crash the process: idle ones report it through
  // the pool, checked-out ones (between a transaction's statements, say) on themselves; the next
  // query on it then fails, and the request answers 503.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  if (!pooled) prepareStatementsOn(pool);
  const db = drizzle(pool);
  return {
    db,
    pool,
    url,
    directUrl,
    pooled,
    async close() {
      // A statement still waiting (on a lock, say) would hold the pool open for as long as the
      // database lets it wait: past POOL_CLOSE_MS the embedded PostgreSQL is stopped under it,
      // which ends that statement too.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        pool.end(),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, POOL_CLOSE_MS))),
      ]).finally(() => clearTimeout(timer));
      await onClose?.();
    },
  };
}

/** How long closing waits for statements still running before it stops PostgreSQL anyway. */
const POOL_CLOSE_MS = 2_000;

/** Opens the database at `databaseUrl`, or starts the embedded one in `dataDir`, then migrates. */
export async function openDatabase(
  opts: {
    databaseUrl: string | undefined;
    /** DATABASE_DIRECT_URL: PostgreSQL itself when `databaseUrl` is a pooler. */
    databaseDirectUrl?: string | undefined;
    dataDir: string;
    attach?: boolean;
    databaseTimeouts?: DatabaseTimeouts;
    embeddedPostgresRestarts?: number;
    /** The embedded PostgreSQL exited and could not be restarted. */
    onEmbeddedGiveUp?: (err: Error) => void;
    /** Apply only this many migrations (a restore brings a backup's level first). */
    migrations?: number;
  },
  log: Logger,
): Promise<Database> {
  let database: Database;
  if (opts.databaseUrl) {
    database = createDatabase(
      opts.databaseUrl,
      undefined,
      opts.databaseTimeouts,
      opts.databaseDirectUrl ?? opts.databaseUrl,
    );
  } else {
    const embedded = await startEmbeddedPostgres(opts.dataDir, log, {
      attach: opts.attach,
      restarts: opts.embeddedPostgresRestarts,
      onGiveUp: opts.onEmbeddedGiveUp,
    });
    database = createDatabase(embedded.url, embedded.stop, opts.databaseTimeouts);
  }
  try {
    await migrateDatabase(database, opts.migrations);
    if (database.pooled) {
      await applyPooledTimeouts(database, opts.databaseTimeouts ?? DEFAULT_DATABASE_TIMEOUTS);
    }
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/**
 * Applies the committed migrations (all of them, or up to `upTo` of them), on a connection of
 * its own straight to PostgreSQL, in one transaction that first takes a transaction-scoped
 * advisory lock: concurrent starts wait for each other, and the lock cannot outlive the
 * transaction (nor be left behind on a pooler's connection). The bookkeeping is drizzle-kit's
 * (`drizzle.__drizzle_migrations`, one row per migration with its hash and journal time).
 */
export async function migrateDatabase(database: Database, upTo?: number): Promise<void> {
  const all = readMigrationFiles({ migrationsFolder });
  const migrations = upTo === undefined ? all : all.slice(0, upTo);
  if (migrations.length < (upTo ?? 0)) {
    throw new Error(`only ${all.length} migrations exist; ${upTo} were asked for`);
  }
  await inDirectTransaction(database.directUrl, async (client) => {
    // Waiting for another process's migrations, or a long one, is not a statement to cut short.
    await client.query("set local statement_timeout = 0");
    await client.query("set local idle_in_transaction_session_timeout = 0");
    await client.query("set local lock_timeout = 0");
    await client.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(`create schema if not exists "drizzle"`);
    await client.query(
      `create table if not exists ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
    );
    const { rows } = await client.query<{ created_at: string }>(
      `select created_at from ${MIGRATIONS_TABLE} order by created_at desc limit 1`,
    );
    const last = rows[0] ? Number(rows[0].created_at) : undefined;
    for (const m of migrations) {
      if (last !== undefined && m.folderMillis <= last) continue;
      for (const statement of m.sql) await client.query(statement);
      await client.query(`insert into ${MIGRATIONS_TABLE} (hash, created_at) values ($1, $2)`, [
        m.hash,
        m.folderMillis,
      ]);
    }
  });
}

/** How many of the committed migrations the database has applied. */
export async function migrationLevel(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ created_at: string }>(
    `select created_at from ${MIGRATIONS_TABLE} order by created_at desc limit 1`,
  );
  if (!rows[0]) return 0;
  const last = Number(rows[0].created_at);
  return readMigrationFiles({ migrationsFolder }).filter((m) => m.folderMillis <= last).length;
}

/**
 * Behind a transaction pooler a session setting would stay on whichever server connection ran
 * it, and PgBouncer refuses them as startup parameters: the timeouts become this role's defaults
 * in this database, which PostgreSQL applies to every new server connection the pooler opens.
 */
export async function applyPooledTimeouts(
  database: Database,
  timeouts: DatabaseTimeouts,
): Promise<void> {
  await inDirectTransaction(database.directUrl, async (client) => {
    // Processes starting together would update the same catalogue row at once.
    await client.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    const { rows } = await client.query<{ db: string }>("select current_database() as db");
    const db = `"${rows[0]!.db.replace(/"/g, '""')}"`;
    const ms = (n: number) => String(Math.max(0, Math.round(n)));
    await client.query(
      `alter role current_user in database ${db} set statement_timeout = ${ms(timeouts.statementMs)}`,
    );
    await client.query(
      `alter role current_user in database ${db} set idle_in_transaction_session_timeout = ${ms(timeouts.idleInTransactionMs)}`,
    );
    await client.query(
      `alter role current_user in database ${db} set lock_timeout = ${ms(timeouts.lockMs)}`,
    );
  });
}
