import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { DatabaseTimeouts } from "../config";
import * as schema from "./schema";
import { startEmbeddedPostgres } from "./embedded-postgres";

export type Db = NodePgDatabase<typeof schema>;
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** The connection string (for connections of their own, such as LISTEN). */
  url: string;
  /** Closes the pool, then stops the embedded PostgreSQL if this process started it. */
  close(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

// Any fixed number works; it only has to be the same in every process of this app.
const MIGRATION_LOCK_KEY = 7_345_001;

/** What a pool uses when the caller says nothing (the defaults of `config.ts`). */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 10_000,
  idleInTransactionMs: 30_000,
};

export function createDatabase(
  url: string,
  onClose?: () => Promise<void>,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Waiting for a connection, one statement, and a transaction left open are all bounded: a
    // statement past its time is cancelled by PostgreSQL and its transaction rolls back whole.
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  });
  // A client that loses its connection must not crash the process: idle ones report it through
  // the pool, checked-out ones (between a transaction's statements, say) on themselves; the next
  // query on it then fails, and the request answers 503.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzle(pool, { schema });
  return {
    db,
    pool,
    url,
    async close() {
      await pool.end();
      await onClose?.();
    },
  };
}

/** Opens the database at `databaseUrl`, or starts the embedded one in `dataDir`, then migrates. */
export async function openDatabase(
  opts: {
    databaseUrl: string | undefined;
    dataDir: string;
    attach?: boolean;
    databaseTimeouts?: DatabaseTimeouts;
    embeddedPostgresRestarts?: number;
    /** The embedded PostgreSQL exited and could not be restarted. */
    onEmbeddedGiveUp?: (err: Error) => void;
  },
  log: Logger,
): Promise<Database> {
  let database: Database;
  if (opts.databaseUrl) {
    database = createDatabase(opts.databaseUrl, undefined, opts.databaseTimeouts);
  } else {
    const embedded = await startEmbeddedPostgres(opts.dataDir, log, {
      attach: opts.attach,
      restarts: opts.embeddedPostgresRestarts,
      onGiveUp: opts.onEmbeddedGiveUp,
    });
    database = createDatabase(embedded.url, embedded.stop, opts.databaseTimeouts);
  }
  try {
    await migrateDatabase(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/** Applies the committed migrations; an advisory lock keeps concurrent starts from racing. */
export async function migrateDatabase(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    // Waiting for another process's migrations, or a long one, is not a statement to cut short.
    await client.query("set statement_timeout = 0");
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.query("reset statement_timeout").catch(() => {});
    client.release();
  }
}
