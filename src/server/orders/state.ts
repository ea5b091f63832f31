import { and, eq, inArray, ne, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { accountTransactionId, ON_ACCOUNT } from "../../contract/terms";
import {
  WARRANTY_REPLACEMENT,
  warrantyTransactionId,
  type CancelReason,
} from "../../contract/orders";
import type { DbOrTx } from "../db/database";
import { unprocessable } from "../errors";
import type { StockMoves } from "../inventory/service";
import type { ShippingCarrier } from "../../contract/shipping-carriers";
import { orderEventData } from "../webhooks/events";
import { recordWebhookEvent } from "../webhooks/outbox";
import { holdingStatuses } from "../../contract/orders";
import { orderItems, orders } from "./tables";

/**
 * An order's life, and the one place its row changes after it is placed (docs/ordering.md):
 *
 *   placed ──▶ unpaid ─────────────┬─▶ paid ──▶ shipped
 *          └─▶ awaiting_approval ──┤     └──▶ cancelled (refunded)
 *               (approved: unpaid) └─▶ cancelled (declined, deleted, hold ran out, by the store)
 *
 * `paid` is reached by a card payment (`markOrderPaid`: an order cancelled because its hold ran out
 * too, when its stock is still there) or on account (`settleOnAccount`: a company on net terms).
 * Every change names the statuses it leaves from in its `where`, so a race (a payment and the
 * sweeper) changes the row once; the caller has locked it where it decides on what it read.
 * Payments, approvals, terms, shipments and returns change orders only through these, and each
 * change records its webhook event (`order.approved`, `.paid`, `.shipped`, `.cancelled`:
 * docs/webhooks.md) in the same transaction; `order.placed` is the placement's (checkout/).
 */
export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;

/** What the admin says about the parcel when shipping (docs/shipments.md). */
export interface ShipmentTracking {
  carrier: ShippingCarrier;
  /** Already normalised by the contract: upper case, no spaces. */
  trackingNumber: string;
}

/** `order.cancelled` for each order, with why (`store`, `declined`, `hold_ran_out`…). */
async function recordCancelled(tx: DbOrTx, rows: readonly OrderRow[]): Promise<void> {
  for (const row of rows) {
    await recordWebhookEvent(tx, {
      type: "order.cancelled",
      data: orderEventData(row, { reason: row.cancelReason }),
    });
  }
}

/**
 * The orders `where` picks → cancelled for `reason` (at `at`, now unless told), with their
 * `order.cancelled` events, and their stock given back (the caller's stock transaction).
 */
async function cancelOrders(
  tx: DbOrTx,
  stock: StockMoves,
  where: SQL | undefined,
  reason: CancelReason,
  at: Date | SQL = new Date(),
): Promise<OrderRow[]> {
  const rows = await tx
    .update(orders)
    .set({ status: "cancelled", cancelledAt: at, cancelReason: reason })
    .where(where)
    .returning();
  await recordCancelled(tx, rows);
  await stock.releaseOrders(rows.map((r) => r.id));
  return rows;
}

/**
 * An order's row, locked for the rest of the caller's transaction (undefined: no such order).
 * NO KEY UPDATE, as every write of it takes: rows that only refer to the order (a stock
 * allocation a receipt writes while it holds the part's row) check their key at commit with KEY
 * SHARE, which FOR UPDATE would make wait, deadlocking with a caller that then waits for the
 * part (stock-concurrency.test.ts).
 */
export async function lockOrder(tx: DbOrTx, id: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for("no key update");
  return row;
}

/** The lines of some orders, in order and line order. */
export async function linesOf(tx: DbOrTx, orderIds: string[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return [];
  return tx
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(orderItems.orderId, orderItems.line);
}

/** Whether any order still holding stock (unpaid, awaiting approval) has a line of the product. */
export async function productHeldByOrders(tx: DbOrTx, productId: string): Promise<boolean> {
  const [held] = await tx
    .select({ id: orders.id })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, productId), inArray(orders.status, holdingStatuses)))
    .limit(1);
  return held !== undefined;
}

/** The products an order's lines are of (lines of deleted products left out). */
export async function productIdsOf(tx: DbOrTx, orderId: string): Promise<string[]> {
  const rows = await tx
    .select({ productId: orderItems.productId })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  return rows.flatMap((r) => (r.productId ? [r.productId] : []));
}

/** awaiting_approval → unpaid: an owner approved it; its hold starts again, ending `until`. */
export async function approveOrder(tx: DbOrTx, id: string, until: Date): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ status: "unpaid", holdExpiresAt: until, holdWarnedAt: null })
    .where(and(eq(orders.id, id), eq(orders.status, "awaiting_approval")))
    .returning();
  if (!row) throw new Error(`approveOrder: order ${id} is not awaiting approval`);
  await recordWebhookEvent(tx, { type: "order.approved", data: orderEventData(row) });
  return row;
}

/** How an order was paid: by whom (a gateway, on account, a warranty's replacement) and its id there. */
type Payment = { transactionId: string; paidWith: NonNullable<OrderRow["paidWith"]> };

/**
 * The order → `paid` by `payment`, now, if it still is as `from` says (its status, its total),
 * with its `order.paid` event; undefined (nothing written) if it no longer is.
 */
async function paidBy(
  tx: DbOrTx,
  id: string,
  payment: Payment,
  from: SQL | undefined,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(orders)
    .set({ status: "paid", ...payment, paidAt: new Date() })
    .where(and(eq(orders.id, id), from))
    .returning();
  if (row) {
    await recordWebhookEvent(tx, {
      type: "order.paid",
      data: orderEventData(row, { paidWith: row.paidWith }),
    });
  }
  return row;
}

/**
 * unpaid, awaiting_approval or cancelled (its hold ran out: the caller took its stock again) →
 * paid by the gateway's payment `transactionId`.
 */
export async function markOrderPaid(tx: DbOrTx, id: string, payment: Payment): Promise<OrderRow> {
  const from = inArray(orders.status, [...holdingStatuses, "cancelled"]);
  const row = await paidBy(tx, id, payment, from);
  if (!row) throw new Error(`markOrderPaid: order ${id} cannot be paid`);
  return row;
}

/**
 * A just-placed (or just-approved) order of a company on net terms → `paid` on account: accepted
 * and to be shipped, its stock taken for good; its invoice is the caller's (terms).
 */
export async function settleOnAccount(tx: DbOrTx, id: string): Promise<OrderRow> {
  const payment = { paidWith: ON_ACCOUNT, transactionId: accountTransactionId(id) };
  const row = await paidBy(tx, id, payment, ne(orders.status, "cancelled"));
  if (!row) throw new Error(`settleOnAccount: no order ${id} to settle`);
  return row;
}

/**
 * A warranty claim's just-placed $0 replacement (docs/warranty.md "Approval") → `paid`, nothing
 * owed, to be shipped as any order; its transaction id names the claim, and is unique: one claim,
 * one replacement, however many clicks.
 */
export async function settleWarrantyReplacement(
  tx: DbOrTx,
  id: string,
  claim: string,
): Promise<OrderRow> {
  const payment = { paidWith: WARRANTY_REPLACEMENT, transactionId: warrantyTransactionId(claim) };
  const from = and(eq(orders.status, "unpaid"), eq(orders.totalCents, 0));
  const row = await paidBy(tx, id, payment, from);
  if (!row) throw new Error(`settleWarrantyReplacement: no $0 order ${id} to settle`);
  return row;
}

/** An order settled on account: its invoice's number and due date, for its words. */
export async function recordAccountInvoice(
  tx: DbOrTx,
  id: string,
  invoice: { number: string; dueAt: Date },
): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ accountInvoiceNumber: invoice.number, accountDueAt: invoice.dueAt })
    .where(eq(orders.id, id))
    .returning();
  if (!row) throw new Error(`recordAccountInvoice: no order ${id}`);
  return row;
}

/**
 * Its invoice on account is covered (`at`; by credit notes alone: `creditedInFull`), or owed
 * again (null: a payment reversed). Kept by terms/service.ts `syncAccountSettlement`.
 */
export async function markAccountSettled(
  tx: DbOrTx,
  id: string,
  settled: { at: Date; creditedInFull: boolean } | null,
): Promise<void> {
  await tx
    .update(orders)
    .set({
      accountSettledAt: settled?.at ?? null,
      accountCreditedInFull: settled?.creditedInFull ?? false,
    })
    .where(eq(orders.id, id));
}

/** paid → shipped, with the last parcel's tracking. Undefined: it is not (or no longer) paid. */
export async function markOrderShipped(
  tx: DbOrTx,
  id: string,
  at: Date,
  tracking: ShipmentTracking | null,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(orders)
    .set({
      status: "shipped",
      shippedAt: at,
      carrier: tracking?.carrier ?? null,
      trackingNumber: tracking?.trackingNumber ?? null,
    })
    .where(and(eq(orders.id, id), eq(orders.status, "paid")))
    .returning();
  if (row) {
    await recordWebhookEvent(tx, {
      type: "order.shipped",
      data: orderEventData(row, {
        carrier: row.carrier,
        trackingNumber: row.trackingNumber,
      }),
    });
  }
  return row;
}

/**
 * The one way an order that holds stock (unpaid, or awaiting approval) is cancelled: its row
 * marked cancelled, its stock given back, in the caller's stock transaction. Admins' cancel and
 * approvals' decline go through it.
 */
export async function cancelHoldingOrder(
  tx: DbOrTx,
  stock: StockMoves,
  id: string,
  reason: Extract<CancelReason, "store" | "declined">,
): Promise<{ row: OrderRow; items: OrderItemRow[] }> {
  const where = and(eq(orders.id, id), inArray(orders.status, holdingStatuses));
  const [row] = await cancelOrders(tx, stock, where, reason);
  if (!row) throw unprocessable("Only unpaid orders can be cancelled");
  return { row, items: await linesOf(tx, [id]) };
}

/** paid → cancelled: its stock goes back; its refund is the caller's (cancel-order workflow). */
export async function cancelPaidOrder(
  tx: DbOrTx,
  stock: StockMoves,
  id: string,
  reason: Extract<CancelReason, "store" | "buyer"> = "store",
): Promise<{ row: OrderRow; items: OrderItemRow[] }> {
  const where = and(eq(orders.id, id), eq(orders.status, "paid"));
  const [row] = await cancelOrders(tx, stock, where, reason);
  if (!row) throw unprocessable("Only a paid order that has not shipped can be cancelled");
  return { row, items: await linesOf(tx, [id]) };
}

/**
 * Cancels every order of a customer that holds stock and gives the stock back (an account
 * removed, or an admin's "Cancel holds"); paid and shipped orders stay for the records.
 */
export async function cancelHoldsOf(
  tx: DbOrTx,
  stock: StockMoves,
  userId: string,
  reason: Extract<CancelReason, "store" | "account_removed">,
): Promise<OrderRow[]> {
  const where = and(eq(orders.userId, userId), inArray(orders.status, holdingStatuses));
  return cancelOrders(tx, stock, where, reason);
}

/**
 * Cancels the orders whose hold has run out and gives their stock back; rows another
 * transaction holds are left for the next sweep.
 */
export async function cancelExpired(
  tx: DbOrTx,
  stock: StockMoves,
  /** "Now" as a moved clock says (tests); else the database's. */
  at?: Date,
): Promise<OrderRow[]> {
  const expired = inArray(
    orders.id,
    sql`(select id from orders
          where status in ('unpaid', 'awaiting_approval')
            and hold_expires_at < ${at ? sql`${at.toISOString()}::timestamptz` : sql`now()`}
          for update skip locked)`,
  );
  return cancelOrders(tx, stock, expired, "hold_ran_out", sql`now()`);
}

/**
 * Marks the unpaid orders whose hold ends within `beforeMs` as warned, once each; orders placed
 * with less hold than that left are not (they were told the end when they ordered).
 */
export async function markHoldsWarned(tx: DbOrTx, beforeMs: number): Promise<OrderRow[]> {
  const before = sql`make_interval(secs => ${beforeMs / 1000})`;
  return tx
    .update(orders)
    .set({ holdWarnedAt: sql`now()` })
    .where(
      inArray(
        orders.id,
        sql`(select id from orders
              where status = 'unpaid' and hold_warned_at is null
                and hold_expires_at > now() and hold_expires_at <= now() + ${before}
                and hold_expires_at - created_at > ${before}
              for update skip locked)`,
      ),
    )
    .returning();
}

/**
 * The owner deletes an order that holds stock (or withdraws one awaiting approval): its stock goes
 * back, and the row and its lines are gone. The caller has locked and checked the row.
 */
export async function deleteHoldingOrder(tx: DbOrTx, stock: StockMoves, id: string): Promise<void> {
  await stock.releaseOrders([id]);
  await tx.delete(orders).where(and(eq(orders.id, id), inArray(orders.status, holdingStatuses)));
}

/**
 * A paid order with a parcel gone is partly shipped (shipping its last units makes it
 * `shipped`): the one rule behind every order's `partiallyShipped`.
 */
export const isPartlyShipped = (row: Pick<OrderRow, "status" | "partlyShippedAt">) =>
  row.status === "paid" && row.partlyShippedAt !== null;

/** A parcel of a paid order left with more to follow (shipments/): it is partly shipped. */
export async function markPartlyShipped(tx: DbOrTx, id: string, at: Date): Promise<void> {
  await tx
    .update(orders)
    .set({
      partlyShippedAt: sql`coalesce(${orders.partlyShippedAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(orders.id, id), eq(orders.status, "paid")));
}
