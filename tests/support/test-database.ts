import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDatabase, migrateDatabase, type Database } from "../../src/server/db/database";

export type TestDatabase = Database;

/** A fresh, migrated database of its own for one test file; `close()` drops it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("adminDatabaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = createDatabase(url.toString(), () =>
    withAdmin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)),
  );
  await migrateDatabase(database);
  return database;
}

async function withAdmin(adminUrl: string, fn: (c: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}
