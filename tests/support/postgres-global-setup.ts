import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../src/server/db/embedded-postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server the tests may create databases in. */
    adminDatabaseUrl: string;
  }
}

/**
 * One PostgreSQL for the whole run: the server at TEST_DATABASE_URL, or an embedded one in a
 * temporary folder. Each test file creates its own database in it (see test-database.ts).
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide("adminDatabaseUrl", external);
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-test-pg-"));
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m) };
  const pg = await startEmbeddedPostgres(dir, quiet);
  project.provide("adminDatabaseUrl", pg.url);
  return async () => {
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
