import pg from "pg";
import type { CatalogChange } from "./read-cache";

export const CATALOG_CHANNEL = "catalog_changed";

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * Hears every change to the products table, from any server process: a trigger (migration
 * 0003) sends NOTIFY, saying `stock` when only available quantities changed, and this
 * dedicated connection LISTENs. While the
 * connection is down the caller is told, so it can stop trusting its cache; it reconnects.
 */
export function listenForCatalogChanges(
  url: string,
  handlers: { onChange(change: CatalogChange): void; onListening(listening: boolean): void },
  log: Logger,
): { stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on("notification", (n) => handlers.onChange(n.payload === "stock" ? "stock" : "catalog"));
    c.on("error", () => {});
    c.on("end", () => {
      if (client !== c) return;
      handlers.onListening(false);
      if (!stopped) retry = setTimeout(() => void connect(), 1000).unref();
    });
    try {
      await c.connect();
      await c.query(`listen ${CATALOG_CHANNEL}`);
      handlers.onListening(true);
    } catch (err) {
      log.warn({ err }, "catalog change listener could not connect; retrying");
      await c.end().catch(() => {});
    }
  };
  void connect();

  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
