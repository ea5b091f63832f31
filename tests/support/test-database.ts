import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase, migrateDatabase, type Database } from "../../src/server/db/database";
import { withClient } from "./pg-client";

export type TestDatabase = Database;

/**
 * A fresh, migrated database of its own for one test file (a copy of the run's migrated
 * template; see postgres-global-setup.ts); `close()` drops it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("adminDatabaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await withClient(adminUrl, (c) =>
    c.query(`create database ${name} template ${inject("templateDatabase")}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // TEST_THROUGH_PGBOUNCER=true: the pool goes through PgBouncer (transaction mode), what needs
  // a session of its own straight to PostgreSQL, as DATABASE_URL / DATABASE_DIRECT_URL do.
  const pooler = inject("pooledAdminDatabaseUrl");
  let pooledUrl = url.toString();
  if (pooler) {
    const p = new URL(pooledUrl);
    p.host = new URL(pooler).host;
    pooledUrl = p.toString();
  }
  const database = createDatabase(
    pooledUrl,
    async () => {
      await withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
    undefined,
    url.toString(),
  );
  await migrateDatabase(database);
  return database;
}

/**
 * A test file's own database (createTestDatabase), made in a `beforeAll` (then `seed` writes to
 * it: destination.ts shipsToTestAddress, say) and dropped in an `afterAll`. Call it at the top of
 * the file; its members are there from its `beforeAll` on.
 */
export function testDatabaseForTests(seed?: (db: TestDatabase["db"]) => Promise<void>) {
  let made: TestDatabase | undefined;
  beforeAll(async () => {
    made = await createTestDatabase();
    await seed?.(made.db);
  });
  afterAll(() => made?.close());
  return new Proxy({} as TestDatabase, {
    get(_, member) {
      if (!made) throw new Error("testDatabaseForTests makes the database in beforeAll");
      return made[member as keyof TestDatabase];
    },
  });
}
