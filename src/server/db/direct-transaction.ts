import pg from "pg";

/**
 * Runs `work` in one transaction on a connection of its own straight to PostgreSQL (`url`, never
 * through a pooler), opened by `begin` (which may name an isolation level): committed when `work`
 * returns, rolled back when it throws, and the connection closed either way.
 */
export async function inDirectTransaction<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
  begin = "begin",
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}
