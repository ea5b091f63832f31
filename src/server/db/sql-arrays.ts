import { sql } from "./sql";

// Arrays as one bound parameter (`= any(...)`, `unnest(...)`): one statement shape whatever the
// length, where drizzle's `inArray` writes one parameter per element.

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
