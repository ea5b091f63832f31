import pg from "pg";

/** A query as node-postgres' `Client.query` received it: its text, and its name if it has one. */
export interface SeenQuery {
  text: string;
  name: string | undefined;
}

/**
 * Runs `work` while every query sent by a connection of `pool` (the app's, not the mail queue's
 * or the test's own) is shown to `seen`, with the connection that sent it.
 */
export async function watchQueries(
  pool: pg.Pool,
  seen: (query: SeenQuery, client: pg.Client) => void,
  work: () => Promise<unknown>,
): Promise<void> {
  // Read at each query: the pool replaces its list when a connection goes.
  const ownClient = (c: pg.Client) =>
    (pool as unknown as { _clients: pg.Client[] })._clients.includes(c);
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (ownClient(this) && !isChangeBusPing(args[1])) {
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
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
}

/**
 * The change bus proves it hears by a NOTIFY of its own through the pool every few seconds
 * (`changes/listener.ts`, payload `ping:…`): on its own clock, not part of the work watched.
 */
function isChangeBusPing(values: unknown): boolean {
  return Array.isArray(values) && typeof values[1] === "string" && values[1].startsWith("ping:");
}
