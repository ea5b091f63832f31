import pg from "pg";
import { expect, test } from "vitest";
import { createTestDatabase } from "../../../tests/support/test-database";
import { advisoryLocks } from "./advisory-locks";
import { createDatabase, DEFAULT_DATABASE_TIMEOUTS } from "./database";
import { seedDemoMoney } from "../demo/money";

test("every advisory lock has a number of its own", () => {
  const numbers = Object.values(advisoryLocks);
  expect(new Set(numbers).size).toBe(numbers.length);
});

test("start-up seeding waits for another process's seeding past the pool's short lock timeout", async () => {
  const database = await createTestDatabase();
  // A pool whose lock timeout (50 ms) is far shorter than the other process's seeding takes.
  const impatient = createDatabase(database.directUrl, undefined, {
    ...DEFAULT_DATABASE_TIMEOUTS,
    lockMs: 50,
  });
  const other = new pg.Client({ connectionString: database.directUrl });
  await other.connect();
  try {
    await other.query("begin");
    await other.query("select pg_advisory_xact_lock($1)", [advisoryLocks.seedDemoMoney]);
    const seeding = seedDemoMoney(impatient.db);
    // It waits on the lock longer than its lock timeout without failing...
    await expect
      .poll(
        async () =>
          // (a transaction keeps its first look at pg_stat_activity unless told to forget it)
          (await other.query("select pg_stat_clear_snapshot()")) &&
          (
            await other.query<{ ms: number }>(
              `select coalesce(max(extract(epoch from clock_timestamp() - state_change) * 1000), 0)::int as ms
                 from pg_stat_activity
                where wait_event_type = 'Lock' and wait_event = 'advisory'
                  and pid <> pg_backend_pid()`,
            )
          ).rows[0]!.ms,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(500);
    // ...and seeds once the other process is done.
    await other.query("commit");
    expect(await seeding).toBe(true);
  } finally {
    await other.end();
    await impatient.close();
    await database.close();
  }
});
