import pg from "pg";
import { inDirectTransaction } from "./direct-transaction";

/** The embedded database's application role: owns the store's schemas, is not a superuser. */
export const APP_ROLE = "partsworks";
/** The schemas the store writes: its tables, the migrations' bookkeeping, the job queue. */
const APP_SCHEMAS = ["public", "drizzle", "pgboss"];

/**
 * Makes sure the application role exists with this password (hex only), owns the database and
 * the store's schemas and everything in them, and may set `session_replication_role` (a restore
 * loads tables in any order with it). Objects an older store created as the superuser change
 * owner here, so an existing data folder carries on. Objects of extensions (pg_trgm's functions)
 * stay with the extension. Run as the superuser on every start: it changes nothing the second time.
 */
export async function ensureAppRole(adminUrl: string, password: string): Promise<void> {
  if (!/^[0-9a-f]+$/.test(password)) throw new Error("the application role's password is not hex");
  await inDirectTransaction(adminUrl, async (client) => {
    await client.query(`
      do $$ begin
        if not exists (select from pg_roles where rolname = '${APP_ROLE}') then
          create role ${APP_ROLE} login nosuperuser nocreatedb nocreaterole noreplication;
        end if;
      end $$`);
    // ALTER ROLE takes no parameters; the password is hex (checked above).
    await client.query(`alter role ${APP_ROLE} with login nosuperuser password '${password}'`);
    await client.query(
      `alter database ${pg.escapeIdentifier(databaseOf(adminUrl))} owner to ${APP_ROLE}`,
    );
    await client.query(`grant set on parameter session_replication_role to ${APP_ROLE}`);
    const schemas = APP_SCHEMAS.map((s) => `'${s}'`).join(", ");
    await client.query(`
      do $$ declare r record; begin
        for r in select nspname from pg_namespace
                 where nspname in (${schemas}) and nspowner <> '${APP_ROLE}'::regrole loop
          execute format('alter schema %I owner to ${APP_ROLE}', r.nspname);
        end loop;
        -- Tables, views and free-standing sequences (a column's sequence follows its table).
        for r in select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                 where n.nspname in (${schemas}) and c.relowner <> '${APP_ROLE}'::regrole
                   and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
                   and not exists (select from pg_depend d where d.classid = 'pg_class'::regclass
                                   and d.objid = c.oid and d.deptype in ('e', 'a', 'i'))
                 order by c.relkind = 'S' loop
          execute format('alter table %I.%I owner to ${APP_ROLE}', r.nspname, r.relname);
        end loop;
        for r in select p.oid::regprocedure as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname in (${schemas}) and p.proowner <> '${APP_ROLE}'::regrole
                   and not exists (select from pg_depend d where d.classid = 'pg_proc'::regclass
                                   and d.objid = p.oid and d.deptype = 'e') loop
          execute format('alter routine %s owner to ${APP_ROLE}', r.fn);
        end loop;
        for r in select n.nspname, t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where n.nspname in (${schemas}) and t.typowner <> '${APP_ROLE}'::regrole
                   and t.typtype in ('e', 'd')
                   and not exists (select from pg_depend d where d.classid = 'pg_type'::regclass
                                   and d.objid = t.oid and d.deptype = 'e') loop
          execute format('alter type %I.%I owner to ${APP_ROLE}', r.nspname, r.typname);
        end loop;
      end $$`);
  });
}

const databaseOf = (url: string) =>
  decodeURIComponent(new URL(url).pathname.slice(1)) || "postgres";

/** The same server and database as `adminUrl`, as the application role. */
export function appRoleUrl(adminUrl: string, password: string): string {
  const url = new URL(adminUrl);
  url.username = APP_ROLE;
  url.password = password;
  return url.toString();
}
