import type { Db } from "./database";

/**
 * The PostgreSQL error behind a failure. The driver's `DatabaseError` carries the SQLSTATE
 * `code`, the `constraint` it broke and a `detail`; Drizzle (and our own wrappers) put it in a
 * `cause`, a few levels deep. Every "which PostgreSQL error was this" question goes through here.
 */
export interface PostgresError {
  code: string;
  constraint?: string;
  detail?: string;
}

/** SQLSTATE codes the store reacts to (PostgreSQL manual, appendix A). */
export const PG = {
  foreignKeyViolation: "23503",
  /** A delete refused by a foreign key declared ON DELETE RESTRICT. */
  restrictViolation: "23001",
  uniqueViolation: "23505",
  serializationFailure: "40001",
  deadlockDetected: "40P01",
  lockNotAvailable: "55P03",
} as const;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The first PostgreSQL error in `err`'s cause chain, if there is one. */
export function postgresError(err: unknown): PostgresError | undefined {
  for (let e = err, hops = 0; e && typeof e === "object" && hops < 5; hops++) {
    const { code, severity, constraint, detail, cause } = e as Record<string, unknown>;
    if (typeof code === "string" && typeof severity === "string") {
      return { code, constraint: str(constraint), detail: str(detail) };
    }
    e = cause;
  }
  return undefined;
}

/**
 * Whether `err` is PostgreSQL refusing to delete a row still referred to under the named foreign
 * key (RESTRICT answers 23001, NO ACTION 23503).
 */
export function isStillReferred(err: unknown, constraint: string): boolean {
  const pg = postgresError(err);
  return (
    (pg?.code === PG.restrictViolation || pg?.code === PG.foreignKeyViolation) &&
    pg.constraint === constraint
  );
}

/** Whether `err` is PostgreSQL refusing a duplicate under the named unique constraint. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const pg = postgresError(err);
  return pg?.code === PG.uniqueViolation && pg.constraint === constraint;
}

/**
 * `work` in a transaction, with the database's refusal of it answered in words: `answer(err)` is
 * the error thrown instead (a 409 "that name is taken", "still in use"), undefined to throw `err`
 * as it is.
 */
export async function transactionAnswering<T>(
  db: Db,
  answer: (err: unknown) => Error | undefined,
  work: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (err) {
    throw answer(err) ?? err;
  }
}
