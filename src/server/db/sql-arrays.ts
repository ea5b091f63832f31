import { sql } from "./sql";

// Arrays as one bound parameter (`= any(...)`, `unnest(...)`): one statement shape whatever the
// length, where drizzle's `inArray` writes one parameter per element.

/** A uuid[] parameter; the ids are uuids already checked by the contract or read from the database. */
export const sqlUuids = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;
/** An int[] parameter. */
export const sqlInts = (ns: number[]) => sql`${`{${ns.join(",")}}`}::int[]`;
/** An int[] parameter with nulls in it: node-postgres writes the array. */
export const sqlNullableInts = (ns: (number | null)[]) => sql`${sql.param(ns)}::int[]`;
/** A text[] parameter of any strings (nulls too): node-postgres writes and escapes the array. */
export const sqlTexts = (xs: (string | null)[]) => sql`${sql.param(xs)}::text[]`;
