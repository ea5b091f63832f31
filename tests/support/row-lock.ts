import pg from "pg";

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
