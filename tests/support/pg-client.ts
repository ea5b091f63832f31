import pg from "pg";

/**
 * `use` on a connection of its own to `url` (with `options` of pg's besides: a connect timeout,
 * say), closed after: one statement as the server's admin, or a read of a server a test started.
 */
export async function withClient<T>(
  url: string,
  use: (client: pg.Client) => Promise<T>,
  options: Omit<pg.ClientConfig, "connectionString"> = {},
): Promise<T> {
  const client = new pg.Client({ connectionString: url, ...options });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
