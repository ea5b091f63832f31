import { discountOfUnits } from "../pricing/discounts";
import { and, asc, eq, ne, or, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { conflict } from "../errors";
import { centsToUnits, formatCents } from "../money";
import { orderNumberText } from "../../contract/orders";
import type { RefundToRetry } from "../../contract/refunds";
import type { OrderItemRow, OrderRow } from "../orders/state";
import { orders } from "../orders/tables";
import { refunds, returnRequests } from "./tables";
import { returnEventData } from "../webhooks/events";
import { recordWebhookEvent } from "../webhooks/outbox";

/**
 * Refund rows: money given back for a received return, a paid order cancelled, or a paid line's
 * units on backorder cancelled.
 * The returns module alone writes them; the refund engine (workflows/refund.ts) moves them on.
 */
export type RefundRow = typeof refunds.$inferSelect;

/**
 * Writes a refund for an order, in the caller's transaction (the order row locked): never more,
 * with what is refunded already, than the order's total. It goes back where the order was paid
 * (`paidWith`), else through `gatewayName`.
 */
export async function insertRefund(
  tx: DbOrTx,
  order: Pick<OrderRow, "id" | "totalCents" | "currency" | "paidWith">,
  values: {
    kind: RefundRow["kind"];
    returnId: string | null;
    /** A backorder refund: its line and units (docs/inventory.md "Cancelling backordered units"). */
    line?: number;
    units?: number;
    netCents: number;
    taxCents: number;
    shippingCents: number;
  },
  gatewayName: string,
): Promise<RefundRow> {
  const [sum] = await tx
    .select({ refunded: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(eq(refunds.orderId, order.id));
  const refunded = sum?.refunded ?? 0;
  const amountCents = values.netCents + values.taxCents + values.shippingCents;
  if (refunded + amountCents > order.totalCents) {
    throw conflict(
      `This would refund ${formatCents(refunded + amountCents, order.currency)} of an order of ${formatCents(order.totalCents, order.currency)}`,
    );
  }
  const [row] = await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      ...values,
      amountCents,
      currency: order.currency,
      gateway: order.paidWith ?? gatewayName,
    })
    .returning();
  return row!;
}

/**
 * The net of tax a refund keeps for what was paid for some units (their price less their share of
 * a discount code) and their share of the tax: of an order with VAT included (docs/tax.md "Prices
 * with VAT included") the price paid is gross and contains that tax, so the net is the rest; net +
 * tax is what was paid, whichever way the order was priced.
 */
export const netOfPaid = (
  order: Pick<OrderRow, "pricesIncludeTax">,
  paidCents: number,
  taxCents: number,
): number => (order.pricesIncludeTax ? paidCents - taxCents : paidCents);

/**
 * A paid order cancelled: all of it is refunded (lines, shipping, tax), less what its cancelled
 * backordered units were refunded already.
 */
export async function insertCancellationRefund(
  tx: DbOrTx,
  order: OrderRow,
  gatewayName: string,
): Promise<RefundRow> {
  let net = 0;
  let tax = 0;
  for (const credit of (await backorderCreditsOf(tx, order.id)).values()) {
    net += credit.netCents;
    tax += credit.taxCents;
  }
  // The shipping net of its tax: of an order with VAT included it is gross (docs/tax.md).
  const shipping = netOfPaid(order, order.shippingCents, order.shippingTaxCents);
  return insertRefund(
    tx,
    order,
    {
      kind: "cancellation",
      returnId: null,
      netCents: order.totalCents - order.taxCents - shipping - net,
      taxCents: order.taxCents - tax,
      shippingCents: shipping,
    },
    gatewayName,
  );
}

/**
 * A paid order line's units on backorder cancelled: their price, core deposit and share of the
 * line's tax are refunded (shipping is not: the rest of the order still ships).
 */
export const insertBackorderRefund = (
  tx: DbOrTx,
  order: OrderRow,
  item: Pick<
    OrderItemRow,
    "line" | "qty" | "unitPriceCents" | "coreDepositCents" | "taxCents" | "discountCents"
  >,
  units: number,
  gatewayName: string,
) => {
  const taxCents = Math.round((item.taxCents * units) / item.qty);
  // Less their share of a discount code: the backordered units are the line's last.
  const paid =
    units * item.unitPriceCents -
    (discountOfUnits(item, item.qty) - discountOfUnits(item, item.qty - units));
  return insertRefund(
    tx,
    order,
    {
      kind: "backorder",
      returnId: null,
      line: item.line,
      units,
      netCents: netOfPaid(order, paid, taxCents) + units * item.coreDepositCents,
      taxCents,
      shippingCents: 0,
    },
    gatewayName,
  );
};

/** Units, net and tax already credited per line of an order by backorder refunds. */
export async function backorderCreditsOf(
  tx: DbOrTx,
  orderId: string,
): Promise<Map<number, { units: number; netCents: number; taxCents: number }>> {
  const rows = await tx
    .select({
      line: refunds.line,
      units: sql<number>`sum(${refunds.units})::int`,
      netCents: sql<number>`sum(${refunds.netCents})::int`,
      taxCents: sql<number>`sum(${refunds.taxCents})::int`,
    })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, "backorder")))
    .groupBy(refunds.line);
  return new Map(rows.map(({ line, ...credit }) => [line!, credit]));
}

/** One refund, locked for the rest of the caller's transaction when `lock`. */
export async function refundById(
  tx: DbOrTx,
  id: string,
  lock = false,
): Promise<RefundRow | undefined> {
  const q = tx.select().from(refunds).where(eq(refunds.id, id));
  const [row] = lock ? await q.for("update") : await q;
  return row;
}

/** The refund of a return, if it has one. */
export async function refundOfReturn(tx: DbOrTx, returnId: string): Promise<RefundRow | undefined> {
  const [row] = await tx.select().from(refunds).where(eq(refunds.returnId, returnId));
  return row;
}

/** A paid order's cancellation refund, if the store cancelled it paid. */
export async function cancellationRefundOf(
  tx: DbOrTx,
  orderId: string,
): Promise<RefundRow | undefined> {
  const [row] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, "cancellation")));
  return row;
}

/**
 * A refund left `pending` this long was cut off between its commit and the gateway's answer (the
 * process died, or the call hangs): it is listed and retried as a failed one is.
 */
export const REFUND_STUCK_MS = 5 * 60_000;
/** The retry job waits 2, 4, 8… minutes after each failed attempt, at most this long. */
export const REFUND_RETRY_MAX_WAIT_MS = 6 * 3_600_000;

/** Refunds not done: failed, or stuck pending (older than `REFUND_STUCK_MS`). */
const unfinished = (now: Date): SQL =>
  or(
    eq(refunds.status, "failed"),
    sql`${refunds.status} = 'pending' and ${refunds.createdAt} < ${new Date(now.getTime() - REFUND_STUCK_MS).toISOString()}::timestamptz`,
  )!;

/** A refund as admins see it in the list of refunds to retry. */
/** A refund to retry with its order's number, as `refundsToRetry` reads them. */
export interface RefundOfOrder {
  refund: RefundRow;
  orderNumber: number;
}

export function toRefundToRetry({ refund: r, orderNumber }: RefundOfOrder): RefundToRetry {
  return {
    id: r.id,
    orderId: r.orderId,
    orderNumber: orderNumberText(orderNumber),
    kind: r.kind,
    returnId: r.returnId,
    amount: centsToUnits(r.amountCents),
    currency: r.currency,
    gateway: r.gateway,
    status: r.status,
    error: r.error,
    attempts: r.attempts,
    since: r.createdAt.toISOString(),
    lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
  };
}

/** Refunds failed or stuck, oldest first: an admin's "Payments to refund" and home. */
export async function refundsToRetry(tx: DbOrTx, now: Date, limit = 100): Promise<RefundOfOrder[]> {
  return tx
    .select({ refund: refunds, orderNumber: orders.number })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(ne(refunds.status, "succeeded"), unfinished(now)))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .limit(limit);
}

/** How many refunds are failed or stuck. */
export async function countRefundsToRetry(tx: DbOrTx, now: Date): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(refunds)
    .where(and(ne(refunds.status, "succeeded"), unfinished(now)));
  return row?.n ?? 0;
}

/**
 * The refunds the retry job takes now: stuck ones, and failed ones whose wait after their last
 * attempt (2 minutes doubled by each attempt, at most `REFUND_RETRY_MAX_WAIT_MS`) is over.
 */
export async function refundsDueForRetry(tx: DbOrTx, now: Date, limit = 50): Promise<string[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const wait = sql`least(${REFUND_RETRY_MAX_WAIT_MS / 1000}, 60 * power(2, least(${refunds.attempts}, 20)))`;
  const rows = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(
      and(
        ne(refunds.status, "succeeded"),
        unfinished(now),
        sql`(${refunds.lastAttemptAt} is null or ${refunds.lastAttemptAt} + make_interval(secs => ${wait}) <= ${at})`,
      ),
    )
    .orderBy(asc(refunds.createdAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The gateway refused or failed: the refund (and its return) wait for a retry, with its words. */
export async function markRefundFailed(
  tx: DbOrTx,
  refund: RefundRow,
  message: string,
  at: Date = new Date(),
) {
  await tx
    .update(refunds)
    .set({
      status: "failed",
      error: message.slice(0, 500),
      attempts: sql`${refunds.attempts} + 1`,
      lastAttemptAt: at,
    })
    .where(eq(refunds.id, refund.id));
  if (refund.returnId) {
    await tx
      .update(returnRequests)
      .set({ status: "refund_failed" })
      .where(eq(returnRequests.id, refund.returnId));
  }
}

/** The money went back and its credit note is issued: the refund (and its return) are done. */
export async function markRefundSucceeded(
  tx: DbOrTx,
  refund: RefundRow,
  done: { gatewayRefundId: string | null; creditNoteId: string; at: Date },
): Promise<RefundRow> {
  const [row] = await tx
    .update(refunds)
    .set({
      status: "succeeded",
      gatewayRefundId: done.gatewayRefundId,
      error: null,
      creditNoteId: done.creditNoteId,
      refundedAt: done.at,
    })
    .where(eq(refunds.id, refund.id))
    .returning();
  if (refund.returnId) {
    const [returned] = await tx
      .update(returnRequests)
      .set({ status: "refunded" })
      .where(eq(returnRequests.id, refund.returnId))
      .returning();
    if (returned) {
      await recordWebhookEvent(tx, {
        type: "return.refunded",
        data: returnEventData(returned, {
          refundId: row!.id,
          refund: centsToUnits(row!.amountCents),
          creditNoteId: done.creditNoteId,
        }),
      });
    }
  }
  return row!;
}
