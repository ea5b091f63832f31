import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

/** A query as node-postgres' `Client.query` received it: its text, and its name if it has one. */
export interface SeenQuery {
  text: string;
  name: string | undefined;
}

/**
 * Runs `work` while every query it sends through a connection of `pool` (the app's, not the mail
 * queue's or the test's own) is shown to `seen`, with the connection that sent it. Only `work`'s
 * own queries, told by their async context: the store's background work (the recurring jobs, the
 * change bus's pings) runs on its own clock and is not part of the work watched.
 */
export async function watchQueries(
  pool: pg.Pool,
  seen: (query: SeenQuery, client: pg.Client) => void,
  work: () => Promise<unknown>,
): Promise<void> {
  const watched = new AsyncLocalStorage<true>();
  // Read at each query: the pool replaces its list when a connection goes.
  const ownClient = (c: pg.Client) =>
    (pool as unknown as { _clients: pg.Client[] })._clients.includes(c);
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (watched.getStore() && ownClient(this)) {
      const first = args[0] as string | { text?: string; name?: string };
      seen(
        typeof first === "string"
          ? { text: first, name: undefined }
          : { text: first?.text ?? "", name: first?.name },
        this,
      );
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await watched.run(true, work);
  } finally {
    pg.Client.prototype.query = original;
  }
}
