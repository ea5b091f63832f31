import pg from "pg";
import { sql } from "../db/sql";
import type { Db, DbOrTx } from "../db/database";
import type { ChangeSubscriber } from "../changes/bus";

/**
 * The event types some enabled endpoint subscribes to, kept in memory per database so that
 * `recordWebhookEvent` costs nothing for an event no endpoint wants. Trusted only while the change
 * bus hears (any process's change to `webhook_endpoints` says `webhooks` on it: migration 0061);
 * otherwise, or before the first load, unknown, and the event's statement decides.
 *
 * Kept per database (host, port and name of the connection), not per process: `recordWebhookEvent`
 * is handed only a transaction, and in the test runner one process holds several databases.
 */
export class WebhookSubscriptions implements ChangeSubscriber {
  private types: ReadonlySet<string> | undefined;
  private listening = false;
  private generation = 0;

  constructor(private readonly db: Db) {}

  /** The set, or undefined while it is not known. */
  current(): ReadonlySet<string> | undefined {
    return this.listening ? this.types : undefined;
  }

  invalidate(): void {
    this.generation++;
    this.types = undefined;
    if (this.listening) void this.load();
  }

  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }

  private async load(): Promise<void> {
    const generation = this.generation;
    try {
      const result = await this.db.execute<{ type: string }>(
        sql`select distinct unnest(event_types) as type from webhook_endpoints where enabled`,
      );
      if (generation === this.generation) {
        this.types = new Set(result.rows.map((r) => r.type));
      }
    } catch {
      // Unknown until the next change or reconnection: every event then asks the database.
    }
  }
}

/** Every cache per database: two stores in one process (the tests' second process) share one. */
const registry = new Map<string, Set<WebhookSubscriptions>>();
const poolKeys = new WeakMap<object, string>();

function keyOfParameters(p: { host?: string; port?: number; database?: string }) {
  return `${p.host ?? ""}:${p.port ?? ""}/${p.database ?? ""}`;
}

/** Which database a handle or transaction talks to, from its pg client or pool. */
function databaseKey(handle: DbOrTx): string | undefined {
  const client = (handle as unknown as { session?: { client?: unknown } }).session?.client as
    | { connectionParameters?: { host?: string; port?: number; database?: string } }
    | (object & { options?: pg.PoolConfig })
    | undefined;
  if (!client) return undefined;
  if ("connectionParameters" in client && client.connectionParameters) {
    return keyOfParameters(client.connectionParameters);
  }
  if ("options" in client && client.options) {
    let key = poolKeys.get(client);
    if (key === undefined) {
      const parameters = (
        new pg.Client(client.options) as unknown as {
          connectionParameters: { host?: string; port?: number; database?: string };
        }
      ).connectionParameters;
      key = keyOfParameters(parameters);
      poolKeys.set(client, key);
    }
    return key;
  }
  return undefined;
}

/** Registers the store's cache for its database; the returned function takes it back. */
export function registerWebhookSubscriptions(db: Db, subscriptions: WebhookSubscriptions) {
  const key = databaseKey(db);
  if (key === undefined) return () => {};
  const caches = registry.get(key) ?? new Set();
  caches.add(subscriptions);
  registry.set(key, caches);
  return () => {
    caches.delete(subscriptions);
    if (caches.size === 0 && registry.get(key) === caches) registry.delete(key);
  };
}

/** The known set for the database of this handle, or undefined (then ask the database). */
export function subscribedTypesFor(handle: DbOrTx): ReadonlySet<string> | undefined {
  const key = databaseKey(handle);
  const caches = key === undefined ? undefined : registry.get(key);
  if (!caches) return undefined;
  for (const cache of caches) {
    const types = cache.current();
    if (types) return types;
  }
  return undefined;
}
