import fs from "node:fs/promises";
import pg from "pg";

/**
 * `BENCH_PGSS=file`: the benchmarks' PostgreSQL keeps statement statistics (pg_stat_statements,
 * nested statements and planning included, and each function's calls and time), and writes them
 * to `file` as JSON when it stops: per database (each build's store has its own, so a run with
 * `--against` compares them), the statements that took longest, with calls, plans and times.
 * Wall times measured under the run's load, not CPU: compare statements and builds of one run.
 */
export const statementStatsFile = () => process.env.BENCH_PGSS || undefined;

/** The server settings that keep the statistics (none without `BENCH_PGSS`). */
export const statementStatsSettings = (): string[] =>
  statementStatsFile()
    ? [
        "shared_preload_libraries=pg_stat_statements",
        "pg_stat_statements.track=all",
        "pg_stat_statements.track_planning=on",
        "track_functions=all",
      ]
    : [];

/** How many statements the file lists, the longest first. */
const STATEMENTS = 200;

/** Writes the statistics of every database of the server at `adminUrl` to the file. */
export async function writeStatementStats(adminUrl: string): Promise<void> {
  const file = statementStatsFile();
  if (!file) return;
  const statements = await onDatabase(adminUrl, "postgres", async (c) => {
    await c.query("create extension if not exists pg_stat_statements");
    // A database the run dropped is named by its oid.
    const rows = await c.query(
      `select coalesce(d.datname, s.dbid::text) as database, s.toplevel, s.calls::int, s.plans::int,
              round(s.total_plan_time::numeric, 1)::float8 as plan_ms,
              round(s.total_exec_time::numeric, 1)::float8 as exec_ms,
              round((s.total_exec_time / greatest(s.calls, 1))::numeric, 4)::float8 as exec_ms_per_call,
              regexp_replace(s.query, '\\s+', ' ', 'g') as query
         from pg_stat_statements s left join pg_database d on d.oid = s.dbid
        order by s.total_exec_time desc limit ${STATEMENTS}`,
    );
    return rows.rows;
  });
  const names = await onDatabase(adminUrl, "postgres", (c) =>
    c.query<{ datname: string }>(
      "select datname from pg_database where datname not in ('postgres', 'template0', 'template1')",
    ),
  );
  const functions: unknown[] = [];
  for (const { datname } of names.rows) {
    const rows = await onDatabase(adminUrl, datname, (c) =>
      c.query(
        `select current_database() as database, funcname as function, calls::int,
                total_time as total_ms, self_time as self_ms
           from pg_stat_user_functions order by total_time desc`,
      ),
    );
    functions.push(...rows.rows);
  }
  await fs.writeFile(file, JSON.stringify({ statements, functions }, null, 1));
}

async function onDatabase<T>(adminUrl: string, name: string, fn: (c: pg.Client) => Promise<T>) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
