import { randomUUID } from "node:crypto";
import pg from "pg";
import type { CatalogChange } from "../catalog/read-cache";

export const CATALOG_CHANNEL = "catalog_changed";

/**
 * What a notification on the channel says: a catalog change (`stock` or `catalog`, from the
 * products' triggers) or `prices` (price lists, their entries, companies' lists and members:
 * migration 0034), which the catalog's read cache does not show and the company price cache does,
 * or `sessions` (a session ended, a user changed: migration 0039) for the list's session cache.
 */
export type ChannelChange =
  | CatalogChange
  | "prices"
  | "sessions"
  // Markets (migration 0093): a market, its rate or its countries changed.
  | "markets"
  // Webhooks (migration 0061): endpoints changed; deliveries are due.
  | "webhooks"
  | "webhook-outbox"
  // A customer's addresses changed (migration 0094): `addresses:<user id>`, or all of them.
  | "addresses"
  // The order limits an admin saves (migration 0098).
  | "order-limits";

const OTHER_TOPICS: ReadonlySet<string> = new Set([
  "stock",
  "prices",
  "sessions",
  "markets",
  "webhooks",
  "webhook-outbox",
  "addresses",
  "order-limits",
]);

/**
 * A payload as a topic and, for a keyed one (`addresses:<user id>`), its key: what of the topic
 * changed (absent: all of it). A payload naming no topic is a catalog change (the products'
 * triggers).
 */
export function changeOf(payload: string): { topic: ChannelChange; key?: string } {
  const colon = payload.indexOf(":");
  const topic = colon < 0 ? payload : payload.slice(0, colon);
  if (!OTHER_TOPICS.has(topic)) return { topic: "catalog" };
  return colon < 0
    ? { topic: topic as ChannelChange }
    : { topic: topic as ChannelChange, key: payload.slice(colon + 1) };
}

/** How often the listener proves it still hears notifications (CATALOG_PING_SECONDS). */
export const DEFAULT_PING_MS = 5_000;
/** Connecting and LISTEN, at most (a database frozen mid-connect would otherwise hold it forever). */
const CONNECT_TIMEOUT_MS = 10_000;

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * Hears every change to the products table, from any server process: a trigger (migration
 * 0003) sends NOTIFY, saying `stock` when only available quantities changed (and, on the same
 * channel, `prices` for a change to company prices: `ChannelChange`), and this
 * dedicated connection LISTENs (on DATABASE_DIRECT_URL: through a transaction pooler a LISTEN
 * lands on a server connection that goes back to the pool, and notifications are lost).
 *
 * A connection can be up and still hear nothing (a pooler in the way, a LISTEN lost), so the
 * listener proves it hears: every `pingMs` it sends a NOTIFY of its own through `notify` (the
 * app's pool, where the trigger's NOTIFYs come from) and it counts as listening only while its
 * last ping came back. A ping unheard by the next one, or a dropped connection, tells the caller
 * (which stops trusting its cache) and the listener reconnects.
 */
export function listenForChanges(
  url: string,
  handlers: {
    /** `key`: what of the topic changed, for a keyed payload (`changeOf`). */
    onChange(change: ChannelChange, key?: string): void;
    onListening(listening: boolean): void;
  },
  log: Logger,
  opts: { notify?: (channel: string, payload: string) => Promise<unknown>; pingMs?: number } = {},
): { stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const pingMs = opts.pingMs ?? DEFAULT_PING_MS;
  const me = `ping:${randomUUID()}`;
  let pingSeq = 0;
  /** The ping sent last and not heard yet, and when it was sent. */
  let outstanding: string | undefined;
  let outstandingSince = 0;
  /** The current connection is listening: until then it has no ping to be judged by. */
  let ready = false;
  let listening = false;
  const setListening = (value: boolean) => {
    if (value === listening) return;
    listening = value;
    handlers.onListening(value);
  };

  const ping = () => {
    if (!opts.notify || !ready || stopped) return;
    const payload = `${me}:${++pingSeq}`;
    outstanding = payload;
    outstandingSince = Date.now();
    opts.notify(CATALOG_CHANNEL, payload).catch(() => {});
  };

  const connect = async () => {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: CONNECT_TIMEOUT_MS,
    });
    client = c;
    // A ping of an earlier connection says nothing of this one, nor may it end this one while it
    // is still connecting (which, slower than a ping interval, would never recover).
    ready = false;
    outstanding = undefined;
    c.on("notification", (n) => {
      const payload = n.payload ?? "";
      if (payload.startsWith("ping:")) {
        // Another process's pings say nothing about this connection.
        if (client === c && payload === outstanding) {
          outstanding = undefined;
          setListening(true);
        }
        return;
      }
      const { topic, key } = changeOf(payload);
      handlers.onChange(topic, key);
    });
    c.on("error", () => {});
    c.on("end", () => {
      if (client !== c) return;
      ready = false;
      setListening(false);
      if (!stopped) retry = setTimeout(() => void connect(), 1000).unref();
    });
    try {
      await c.connect();
      await c.query(`listen ${CATALOG_CHANNEL}`);
      ready = client === c;
      if (opts.notify) ping();
      else setListening(true);
    } catch (err) {
      log.warn({ err }, "catalog change listener could not connect; retrying");
      await c.end().catch(() => {});
    }
  };
  void connect();

  const timer = opts.notify
    ? setInterval(() => {
        if (!ready) return;
        if (outstanding !== undefined && client) {
          // A ping is judged a whole interval after it was sent, not at the next tick: the first
          // ping of a new connection goes out whenever it is ready, maybe just before a tick.
          if (Date.now() - outstandingSince < pingMs) return;
          // The last ping never came back: this connection does not hear; start afresh.
          if (listening) log.warn({}, "catalog change listener stopped hearing notifications");
          setListening(false);
          outstanding = undefined;
          ready = false;
          void client.end().catch(() => {});
          return;
        }
        ping();
      }, pingMs).unref()
    : undefined;

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
