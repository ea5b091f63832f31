import { and, eq, inArray, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { sqlUuids } from "../db/sql-arrays";
import type { HoldLimits } from "../config";
import { holdWindows } from "./tables";

/**
 * An account's hold windows (the table's comment says what one is): opened by a placement,
 * moved by an approval, closed by a payment. The inventory alone writes them.
 */

/**
 * A placement's windows, as an entry of its statement's `with`: one per product, opening until
 * `until`, or kept as it is while an earlier one is still open.
 */
export function openHoldWindowsCte(
  name: string,
  userId: string,
  productIds: string[],
  until: Date,
): SQL {
  return sql`
    ${sql.raw(name)} as (
      insert into hold_windows (user_id, product_id, expires_at)
      select ${userId}, p, ${until.toISOString()}::timestamptz from unnest(${sqlUuids(productIds)}) as p
      on conflict (user_id, product_id) do update set expires_at =
        case when hold_windows.expires_at > now() then hold_windows.expires_at
             else excluded.expires_at end
      returning 1
    )`;
}

/** The account's windows on these products end `until` (an approved order's hold restarts). */
export async function moveHoldWindows(
  tx: DbOrTx,
  userId: string | null,
  productIds: string[],
  until: Date,
): Promise<void> {
  if (!userId || productIds.length === 0) return;
  await tx
    .update(holdWindows)
    .set({ expiresAt: until })
    .where(and(eq(holdWindows.userId, userId), inArray(holdWindows.productId, productIds)));
}

/** Paid (by card or on account): the windows close, so the next order of them holds in full. */
export async function closeHoldWindows(
  tx: DbOrTx,
  userId: string | null,
  productIds: string[],
): Promise<void> {
  if (!userId || productIds.length === 0) return;
  await tx
    .delete(holdWindows)
    .where(and(eq(holdWindows.userId, userId), inArray(holdWindows.productId, productIds)));
}

/**
 * When the stock of an order awaiting a company owner's approval stops being held: `businessDays`
 * Monday-to-Friday days (UTC) after `from`, at the same time of day. Owners decide between jobs or
 * the next morning, so every buyer's order waits this long, verified or not (docs/approvals.md).
 */
export function approvalWindowEnd(from: Date, businessDays: number): Date {
  const end = new Date(from);
  for (let left = businessDays; left > 0;) {
    end.setUTCDate(end.getUTCDate() + 1);
    const day = end.getUTCDay();
    if (day !== 0 && day !== 6) left--;
  }
  return end;
}

/**
 * How long a new order holds its stock: shorter for a new customer (no order paid yet, no
 * company: checkout/read.ts `trustedSql`).
 */
export function holdTime(standing: { trusted: boolean }, limits: HoldLimits, holdMs: number) {
  return standing.trusted ? holdMs : Math.min(holdMs, limits.newCustomerHoldMs);
}
