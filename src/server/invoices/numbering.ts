import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import type { DocumentKind } from "./tables";

const PREFIX: Record<DocumentKind, string> = { invoice: "INV", credit_note: "CN" };

/** `INV-2026-000123`: the kind's prefix, the year, the sequence in six digits (more past 999,999). */
export function documentNumber(kind: DocumentKind, year: number, sequence: number): string {
  return `${PREFIX[kind]}-${year}-${String(sequence).padStart(6, "0")}`;
}

/** The calendar year a document issued at this moment is numbered in (UTC). */
export const numberingYear = (at: Date): number => at.getUTCFullYear();

/**
 * The next number of the kind in the year, taken inside the caller's transaction: the counter row
 * stays locked until it commits or rolls back, so numbers are given one transaction at a time
 * (unique) and a rolled-back issue hands its number to the next (gapless). Take it as late in the
 * transaction as possible: every other issue waits on this row until the commit.
 */
export async function nextSequence(tx: DbOrTx, kind: DocumentKind, year: number): Promise<number> {
  const result = await tx.execute<{ last: number }>(sql`
    insert into document_counters (kind, year, last) values (${kind}, ${year}, 1)
    on conflict (kind, year) do update set last = document_counters.last + 1
    returning last`);
  const last = result.rows[0]?.last;
  if (typeof last !== "number") throw new Error("the document counter returned no number");
  return last;
}
