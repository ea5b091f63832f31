import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { APP_ROLE } from "./app-role";
import { openDatabase } from "./database";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { withClient } from "../../../tests/support/pg-client";

let dataDir: string;
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-app-role-test-"));
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

const query = <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> =>
  withClient(url, async (client) => (await client.query<T>(text)).rows);

/** What the store's schemas hold that the application role does not own (extensions aside). */
const notOwnedByApp = `
  select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ('public', 'drizzle', 'pgboss') and c.relowner <> '${APP_ROLE}'::regrole
    and not exists (select from pg_depend d where d.objid = c.oid and d.deptype = 'e')
  union all
  select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname in ('public', 'drizzle', 'pgboss') and p.proowner <> '${APP_ROLE}'::regrole
    and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')`;

test("the store connects to the embedded database as a role that owns its schemas and is not a superuser; an older data folder's objects change owner", async () => {
  // An older store: everything made by the superuser.
  const old = await startEmbeddedPostgres(dataDir, quiet);
  try {
    await query(old.adminUrl, "create table public.made_by_the_superuser (id serial primary key)");
    await query(
      old.adminUrl,
      "create function public.old_fn() returns int language sql as 'select 1'",
    );
    await query(old.adminUrl, "create schema pgboss");
    await query(old.adminUrl, "create type pgboss.old_state as enum ('a', 'b')");
    await query(old.adminUrl, `alter table public.made_by_the_superuser owner to postgres`);
  } finally {
    await old.stop();
  }

  const database = await openDatabase({ databaseUrl: undefined, dataDir }, quiet);
  try {
    const [me] = await database.pool
      .query<{ role: string; superuser: boolean; createrole: boolean; createdb: boolean }>(
        `select current_user as role, rolsuper as superuser, rolcreaterole as createrole,
                rolcreatedb as createdb from pg_roles where rolname = current_user`,
      )
      .then((r) => r.rows);
    expect(me).toEqual({ role: APP_ROLE, superuser: false, createrole: false, createdb: false });
    // The migrations ran as it: it owns every table, sequence and function of the store's
    // schemas, the older ones too.
    const { rows: notOwned } = await database.pool.query(notOwnedByApp);
    expect(notOwned).toEqual([]);
    const { rows: typeOwner } = await database.pool.query(
      `select t.typowner::regrole::text as owner from pg_type t where t.typname = 'old_state'`,
    );
    expect(typeOwner).toEqual([{ owner: APP_ROLE }]);
    // What only a superuser may do, it may not.
    await expect(database.pool.query("create role intruder")).rejects.toThrow(/permission denied/);
    await expect(database.pool.query("copy (select 1) to program 'true'")).rejects.toThrow(
      /permission denied|must be superuser/,
    );
    // A restore may still load tables in any order.
    await database.pool.query("set session_replication_role = replica");
    await database.pool.query("reset session_replication_role");
  } finally {
    await database.close();
  }
  const mode = (await fs.stat(path.join(dataDir, "postgres-app-password"))).mode & 0o777;
  expect(mode).toBe(0o600);
}, 120_000);
