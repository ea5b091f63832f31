import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
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

export function createDatabase(url: string, onClose?: () => Promise<void>): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its connection must not crash the process.
  pool.on("error", () => {});
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
  opts: { databaseUrl: string | undefined; dataDir: string; attach?: boolean },
  log: Logger,
): Promise<Database> {
  let database: Database;
  if (opts.databaseUrl) {
    database = createDatabase(opts.databaseUrl);
  } else {
    const embedded = await startEmbeddedPostgres(opts.dataDir, log, { attach: opts.attach });
    database = createDatabase(embedded.url, embedded.stop);
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
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
}
