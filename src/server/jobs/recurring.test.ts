import PgBoss from "pg-boss";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { recurringJob } from "./recurring";

let database: TestDatabase;
let boss: PgBoss;

beforeAll(async () => {
  database = await createTestDatabase();
  boss = new PgBoss({ connectionString: database.directUrl, max: 2, schedule: false });
  boss.on("error", () => {});
  await boss.start();
});

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
});

it("starts its chain when the first send fails once (a partition not found on a fresh start)", async () => {
  const sends: string[] = [];
  // pg-boss itself, but its first send for this queue refused as PostgreSQL once refused it.
  const flaky = new Proxy(boss, {
    get(target, key, receiver) {
      if (key !== "send") return Reflect.get(target, key, receiver) as unknown;
      return async (...args: Parameters<PgBoss["send"]>) => {
        sends.push(String(args[0]));
        if (sends.length === 1) throw new Error('no partition of relation "job" found for row');
        return target.send(...args);
      };
    },
  });
  let runs = 0;
  let ran = () => {};
  const firstRun = new Promise<void>((resolve) => (ran = resolve));
  const start = recurringJob(
    "flaky-start",
    { everyMs: 1_000, name: "flaky start", log: { error: () => {} } },
    async () => {
      runs++;
      ran();
    },
  );
  // Without the retry, starting rejects with the refusal.
  await start(flaky);
  await firstRun;
  expect(runs).toBe(1);
  // The refused first send, its retry, and the run's queueing of the next one.
  expect(sends.length).toBeGreaterThanOrEqual(3);
});
