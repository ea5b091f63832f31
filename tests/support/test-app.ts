import type { FastifyInstance } from "fastify";
import { buildApp, type AppDeps } from "../../src/server/app";
import { loadConfig } from "../../src/server/config";
import { createDatabase } from "../../src/server/db/database";
import { createTestDatabase, type TestDatabase } from "./test-database";

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The real app on its own fresh database, for `app.inject()` tests. */
export async function createTestApp(
  env: Record<string, string> = {},
  extra: Pick<AppDeps, "onRoute" | "oidc"> & {
    /** Writes rows before the app (and its background jobs) starts. */
    seed?: (db: TestDatabase["db"]) => Promise<void>;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  await extra.seed?.(database.db);
  return appOn(database, env, extra);
}

/** The app, ready, on `database` with the test configuration; `close()` closes both. */
async function appOn(
  database: TestDatabase,
  env: Record<string, string>,
  deps: Pick<AppDeps, "onRoute" | "oidc"> = {},
): Promise<TestApp> {
  const config = testConfig(database, env);
  const app = await buildApp({ config, database, onRoute: deps.onRoute, oidc: deps.oidc });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** The configuration `createTestApp` runs the app with, on `database`. */
function testConfig(database: TestDatabase, env: Record<string, string>) {
  return loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    LOG_LEVEL: "silent",
    BETTER_AUTH_SECRET: "test-secret-that-is-long-enough-0123456789",
    DEMO_IDENTITY_PROVIDER: "false",
    // Tests place many orders from one account; the per-minute limit has its own test.
    ORDERS_PER_MINUTE: "10000",
    // Test accounts are fresh (unverified) and share products; the cap on what unverified
    // accounts hold together has its own test (orders/holds.test.ts).
    HOLD_NEW_CUSTOMER_SHARE: "1",
    // The daily low-stock email has its own test (admin-home/admin-home.test.ts).
    LOW_STOCK_EMAIL: "false",
    // Tests fire many requests at once through inject(); shedding overload has its own test
    // (tests/system/overload.test.ts).
    DB_QUEUE_MAX: "100000",
    // Nor for the event loop's lag: the tests share their loop with the app they drive
    // (overload.test.ts tests it).
    EVENT_LOOP_LAG_MAX_MS: "0",
    // Nor for how long requests waited to be read: a test's burst is read in one turn.
    REQUEST_WAIT_MAX_MS: "0",
    ...env,
  });
}

/**
 * A second server process on the same database as `t` (its own pool, change listener and jobs,
 * the same configuration and auth secret), as a multi-process deployment runs: for what must
 * reach every process. `close()` leaves the database to `t`.
 */
export async function createAnotherProcess(
  t: TestApp,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const database = createDatabase(t.database.url, async () => {}, undefined, t.database.directUrl);
  return appOn(database, env);
}
