import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { sql } from "../db/sql";
import { createRateLimiter, forgetOldRateWindows } from "./rate-limit";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

const keys = async () =>
  (await t.pool.query<{ key: string }>("select key from rate_limit order by key")).rows.map(
    (r) => r.key,
  );

test("the cleanup forgets windows older than a day and keeps the rest, which still count", async () => {
  const limiter = createRateLimiter(t.db);
  await limiter.hit("old", 5, 60);
  await limiter.hit("recent", 5, 86_400);
  await limiter.hit("recent", 5, 86_400);
  await t.pool.query(
    `update rate_limit set window_start = now() - interval '25 hours' where key = 'old'`,
  );
  await t.pool.query(
    `update rate_limit set window_start = now() - interval '23 hours' where key = 'recent'`,
  );

  expect(await forgetOldRateWindows(t.db)).toBe(1);
  expect(await keys()).toEqual(["recent"]);
  // The day-long window kept its two hits: the third is counted on top of them.
  expect(await limiter.hit("recent", 2, 86_400)).toMatchObject({ allowed: false });
  expect(await forgetOldRateWindows(t.db)).toBe(0);
});

test("a hit never forgets another key's window, however old (that is the cleanup's job)", async () => {
  const limiter = createRateLimiter(t.db);
  await limiter.hit("ancient", 5, 60);
  await t.pool.query(
    `update rate_limit set window_start = now() - interval '30 days' where key = 'ancient'`,
  );
  for (let i = 0; i < 200; i++) await limiter.hit(`other-${i % 3}`, 1000, 60);
  expect(await keys()).toContain("ancient");
});

test("spaced: a burst, then one per spacing whoever asks; a refused attempt takes no turn", async () => {
  const limiter = createRateLimiter(t.db);
  const allowed = async () => (await limiter.spaced("mail", 3, 60)).allowed;
  expect([await allowed(), await allowed(), await allowed(), await allowed()]).toEqual([
    true,
    true,
    true,
    false,
  ]);
  // Refused attempts, however many, do not push the next turn further away.
  for (let i = 0; i < 5; i++) expect(await allowed()).toBe(false);
  // A spacing later (the clock moved back instead of waiting a minute): one, and only one.
  await t.pool.query(
    `update rate_limit set window_start = window_start - interval '60 seconds' where key = 'mail'`,
  );
  expect([await allowed(), await allowed()]).toEqual([true, false]);
});

test("backoff: an attempt that began before another went through still goes through within the free attempts", async () => {
  const limiter = createRateLimiter(t.db);
  // The second attempt's statement time is earlier than the first's (it began first, and waited):
  // within the free attempts it goes through all the same; past them it waits its delay.
  const second = await t.db.transaction(async (tx) => {
    await tx.execute(sql`select now()`);
    expect((await limiter.backoff("early", 2, 60)).allowed).toBe(true);
    return createRateLimiter(tx).backoff("early", 2, 60);
  });
  expect(second.allowed).toBe(true);
  const third = await limiter.backoff("early", 2, 60);
  expect(third).toMatchObject({ allowed: false });
  expect(third.retryAfter).toBeGreaterThanOrEqual(1);
});
