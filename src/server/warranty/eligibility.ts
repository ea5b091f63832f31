import { and, eq, isNull, ne } from "drizzle-orm";
import { dueDateWords } from "../../contract/payment-words";
import { warrantyMessages, type Claimable } from "../../contract/warranty";
import { products } from "../catalog/tables";
import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { orderItems, type orders } from "../orders/tables";
import { returnedByLine } from "../returns/returned-units";
import { shippedByLine } from "../shipments/service";
import { warrantyClaims } from "./tables";

// What of an order's lines may be claimed under warranty, and until when (docs/warranty.md
// "What can be claimed"): read inside the claim's transaction, decided here.

type OrderRow = typeof orders.$inferSelect;

/** A day as `YYYY-MM-DD` (UTC). */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The last day of a warranty of `months` from `from` (UTC): the same day of the month, or the
 * month's last day where it has fewer (31 January + 1 month: 28 or 29 February).
 */
export function warrantyEnd(from: Date, months: number): string {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(y, m, Math.min(from.getUTCDate(), lastDay))));
}

/**
 * Claims that count against a line's quantity: every claim not rejected whose part was not asked
 * back (a part asked back is in its return, which counts it: once, either way).
 */
const activeClaim = and(ne(warrantyClaims.status, "rejected"), isNull(warrantyClaims.returnId));

/**
 * Units of each line of an order in a claim not rejected (and not in a return): the returns
 * module subtracts them from what may be returned (given to it at composition), as claims
 * subtract returns.
 */
export async function claimedByLine(tx: DbOrTx, orderId: string): Promise<Map<number, number>> {
  const rows = await tx
    .select({ line: warrantyClaims.line, qty: sql<number>`sum(${warrantyClaims.qty})::int` })
    .from(warrantyClaims)
    .where(and(eq(warrantyClaims.orderId, orderId), activeClaim))
    .groupBy(warrantyClaims.line);
  return new Map(rows.map((r) => [r.line, r.qty]));
}

/** What of each line may still be claimed, and until when (docs/warranty.md "Eligibility"). */
export async function claimableLines(
  tx: DbOrTx,
  order: OrderRow,
  now: Date,
): Promise<Claimable["lines"]> {
  const items = await tx
    .select({
      line: orderItems.line,
      productName: orderItems.productName,
      partNumber: orderItems.partNumber,
      months: products.warrantyMonths,
    })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(orderItems.line);
  const shipped =
    order.status === "paid" || order.status === "shipped"
      ? await shippedByLine(tx, order.id)
      : new Map<number, { qty: number; lastAt: Date }>();
  const claimed = await claimedByLine(tx, order.id);
  const returned = await returnedByLine(tx, order.id);
  const today = dayOf(now);
  return items.map((i) => {
    const s = shipped.get(i.line);
    const months = i.months ?? 0;
    const base = {
      line: i.line,
      productName: i.productName,
      partNumber: i.partNumber,
      warrantyMonths: months,
    };
    if (!s) {
      return {
        ...base,
        shipped: 0,
        claimable: 0,
        endsOn: null,
        shippedOn: null,
        reason: warrantyMessages.notShipped,
      };
    }
    const shippedOn = dayOf(s.lastAt);
    if (months <= 0) {
      return {
        ...base,
        shipped: s.qty,
        claimable: 0,
        endsOn: null,
        shippedOn,
        reason: warrantyMessages.noWarranty(i.line),
      };
    }
    const endsOn = warrantyEnd(s.lastAt, months);
    const left = Math.max(0, s.qty - (claimed.get(i.line) ?? 0) - (returned.get(i.line) ?? 0));
    const reason =
      today > endsOn
        ? warrantyMessages.ended(dueDateWords(endsOn))
        : left === 0
          ? warrantyMessages.tooMany(0)
          : null;
    return { ...base, shipped: s.qty, claimable: reason ? 0 : left, endsOn, shippedOn, reason };
  });
}
