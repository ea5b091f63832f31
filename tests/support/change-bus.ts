import { startChangeBus } from "../../src/server/changes/bus";
import type { TestDatabase } from "./test-database";

/**
 * The store's change bus on a test's database, as a process of the store runs it: listening on
 * the direct URL, its pings sent through the pool, every 100 ms so it proves it hears at once.
 */
export const startTestChangeBus = (database: TestDatabase) =>
  startChangeBus(
    database.directUrl,
    { warn: () => {} },
    {
      notify: (channel, payload) =>
        database.pool.query("select pg_notify($1, $2)", [channel, payload]),
      pingMs: 100,
    },
  );
