import type { DbOrTx } from "./database";
import { sql, type SQL } from "./sql";

// Arrays as one bound parameter (`= any(...)`, `unnest(...)`): one statement shape whatever the
// length, where drizzle's `inArray` writes one parameter per element. Below them, reads and writes
// of many keys or rows: in statements of a bounded size, or none at all for no keys.

/** A uuid[] parameter; the ids are uuids already checked by the contract or read from the database. */
export const sqlUuids = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;
/** An int[] parameter. */
export const sqlInts = (ns: number[]) => sql`${`{${ns.join(",")}}`}::int[]`;
/** An int[] parameter with nulls in it. */
export const sqlNullableInts = (ns: (number | null)[]) =>
  sql`${`{${ns.map((n) => (n === null ? "NULL" : String(n))).join(",")}}`}::int[]`;
/**
 * A text[] parameter of any strings (nulls too), each quoted and escaped as PostgreSQL's array
 * syntax asks. Written here with one join: node-postgres adds element to element, a string per
 * step (a 100,000-application ACES import made 1 GB of them).
 */
export const sqlTexts = (xs: (string | null)[]) =>
  sql`${`{${xs.map((x) => (x === null ? "NULL" : `"${x.replace(/[\\"]/g, "\\$&")}"`)).join(",")}}`}::text[]`;

/**
 * A set-based write of many rows (through these arrays) in statements of `perStatement` rows at
 * the most, each bounded by the statement timeout: how many rows they changed in all.
 */
export async function writeInStatements<T>(
  tx: DbOrTx,
  rows: readonly T[],
  perStatement: number,
  statement: (chunk: readonly T[]) => SQL,
): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += perStatement) {
    const result = await tx.execute(statement(rows.slice(i, i + perStatement)));
    written += result.rowCount ?? 0;
  }
  return written;
}

/** The rows `read` finds for `keys`: none, and no statement sent, when there are no keys. */
export async function rowsForKeys<K, R>(
  keys: K[],
  read: (keys: K[]) => PromiseLike<R[]>,
): Promise<R[]> {
  return keys.length === 0 ? [] : await read(keys);
}
