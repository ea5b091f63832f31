import { sql } from "drizzle-orm";

/**
 * Every PostgreSQL advisory lock the store takes, by name, each with a number of its own: two
 * unrelated jobs never wait on (or skip for) each other by sharing one by accident, as the hold
 * sweeper and two seeding steps once did (7345003). One-number locks guard a job across
 * processes; the `per…` classes are the first half of a two-number lock whose second half names
 * the account it serialises (PostgreSQL keeps the one- and two-number forms apart).
 */
export const advisoryLocks = {
  migrations: 7_345_001,
  seedDemoCatalog: 7_345_002,
  holdSweeper: 7_345_003,
  holdWarnings: 7_345_004,
  seedDemoAccounts: 7_345_005,
  seedDemoFitment: 7_345_006,
  seedDemoMoney: 7_345_007,
  perGarage: 7_345_101,
  perReviewAuthor: 7_345_102,
  perProductImport: 7_345_103,
} as const;

/** Waits for a one-number lock, held until the transaction ends. */
export const lockFor = (key: number) => sql`select pg_advisory_xact_lock(${key})`;

/** Takes a one-number lock if it is free (`ok`), held until the transaction ends. */
export const tryLockFor = (key: number) => sql`select pg_try_advisory_xact_lock(${key}) as ok`;

/** Takes the lock of one key within a class if it is free (`ok`), until the transaction ends. */
export const tryLockWithin = (lockClass: number, key: string) =>
  sql`select pg_try_advisory_xact_lock(${lockClass}, hashtext(${key})) as ok`;

/** Waits for the lock of one key (an account id) within a class, until the transaction ends. */
export const lockWithin = (lockClass: number, key: string) =>
  sql`select pg_advisory_xact_lock(${lockClass}, hashtext(${key}))`;
