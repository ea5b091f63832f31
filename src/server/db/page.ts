import { count, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./database";

/**
 * One page of a list with how many rows there are in all (what http/page.ts `sendPage` answers):
 * `rows`, the ordered query, limited to the page, and a count of `table`'s rows `where` matches,
 * read side by side.
 */
export async function pageOf<R>(
  db: DbOrTx,
  rows: { limit(n: number): { offset(n: number): PromiseLike<R[]> } },
  table: PgTable,
  where: SQL | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: R[]; total: number }> {
  const [found, [counted]] = await Promise.all([
    rows.limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(table).where(where),
  ]);
  return { rows: found, total: counted?.total ?? 0 };
}
