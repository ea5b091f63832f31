import { sql } from "./sql";
import type { DbOrTx } from "./database";

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
  /** One catalog data import at a time (imports/service.ts). */
  catalogImport: 7_345_020,
  perGarage: 7_345_101,
  perReviewAuthor: 7_345_102,
  perProductImport: 7_345_103,
  /** One change to a category's attribute list at a time (catalog/attributes/service.ts). */
  perAttributeCategory: 7_345_104,
} as const;

/** Waits for a one-number lock, held until the transaction ends. */
export const lockFor = (key: number) => sql`select pg_advisory_xact_lock(${key})`;

/**
 * Waits for a one-number lock that another process's start-up work (seeding) may hold for a
 * while: the pool's short `lock_timeout` (`DB_LOCK_TIMEOUT_SECONDS`, meant for the rows an order
 * waits on) is lifted for this transaction, so a store starting beside another waits for it
 * rather than failing to start; the statement timeout still bounds the wait.
 */
export async function waitForLock(tx: DbOrTx, key: number): Promise<void> {
  await tx.execute(sql`set local lock_timeout = 0`);
  await tx.execute(lockFor(key));
}

/** Takes a one-number lock if it is free (`ok`), held until the transaction ends. */
export const tryLockFor = (key: number) => sql`select pg_try_advisory_xact_lock(${key}) as ok`;

/** Takes the lock of one key within a class if it is free (`ok`), until the transaction ends. */
export const tryLockWithin = (lockClass: number, key: string) =>
  sql`select pg_try_advisory_xact_lock(${lockClass}, hashtext(${key})) as ok`;

/** Waits for the lock of one key (an account id) within a class, until the transaction ends. */
export const lockWithin = (lockClass: number, key: string) =>
  sql`select pg_advisory_xact_lock(${lockClass}, hashtext(${key}))`;
