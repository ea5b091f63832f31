import { sql } from "drizzle-orm";
import pg from "pg";
import type { Db, DbOrTx } from "../../src/server/db/database";

/**
 * A product's row locked (`select … for update` in an open transaction on a connection of its
 * own to `databaseUrl`), as a stuck admin edit would hold it, until `release()` rolls back (once:
 * a second call does nothing). `pid`: that session's backend process id, to tell its waiters
 * from it in pg_stat_activity.
 */
export async function lockProductRow(
  databaseUrl: string,
  productId: string,
): Promise<{ pid: number; release(): Promise<void> }> {
  const locker = new pg.Client({ connectionString: databaseUrl });
  await locker.connect();
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await locker.query("rollback").catch(() => {});
    await locker.end();
  };
  try {
    await locker.query("begin");
    await locker.query("select id from products where id = $1 for update", [productId]);
  } catch (err) {
    await release();
    throw err;
  }
  return { pid: (locker as unknown as { processID: number }).processID, release };
}

/**
 * A transaction on `db` that runs `work` and then stays open, holding what it locked and wrote,
 * until `commit()` (which waits for the commit). Resolves once `work` has run: a placement in
 * progress, say, for a request that must wait for its rows.
 */
export async function openTransaction(
  db: Db,
  work: (tx: DbOrTx) => Promise<unknown>,
): Promise<{ commit(): Promise<void> }> {
  let commit!: () => void;
  const committing = new Promise<void>((r) => (commit = r));
  let worked!: () => void;
  let failed!: (err: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((worked = resolve), (failed = reject)));
  const transaction = db.transaction(async (tx) => {
    await work(tx);
    worked();
    await committing;
  });
  transaction.catch(failed);
  await ready;
  return {
    async commit() {
      commit();
      await transaction;
    },
  };
}

/** Resolves once `n` sessions of `db`'s database wait for a lock (a condition, not a sleep). */
export async function sessionsWaitingOnLocks(db: DbOrTx, n = 1): Promise<void> {
  for (;;) {
    const rows = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`);
    if (rows.rows[0]!.n >= n) return;
    await new Promise((r) => setImmediate(r));
  }
}
