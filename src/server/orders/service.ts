import { and, count, desc, eq, exists, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  orderStatuses,
  type AdminOrder,
  type AdminOrderDetail,
  type AccountHolds,
  type AdminOrdersQuery,
  type Order,
  type OrderLine,
  type OrdersOverview,
} from "../../contract/orders";
import {
  shippingCarrierLabels,
  trackingMessages,
  trackingUrl,
  type ShippingCarrier,
} from "../../contract/shipping-carriers";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import { holdingStatuses, orderApprovals, orderItems, orders, payments, user } from "../db/schema";
import { HttpError, notFound, unprocessable } from "../errors";
import type { Inventory, StockMoves } from "../inventory/service";
import type { OrderNotifier } from "./notifier";
import { centsToUnits } from "../money";
import { advisoryLocks, tryLockFor } from "../db/advisory-locks";
import { shipmentMessages } from "../../contract/shipments";
import { hasShipments, isPartlyShipped, shipTheRest, withShipments } from "../shipments/service";

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** What the admin says about the parcel when shipping (docs/shipment-tracking.md). */
export interface ShipmentTracking {
  carrier: ShippingCarrier;
  /** Already normalised by the contract: upper case, no spaces. */
  trackingNumber: string;
}

/**
 * An order for the wire; `anyShipment` (which `withLines` asks the shipments) makes a paid order
 * partly shipped.
 */
export function toOrder(row: OrderRow, items: OrderItemRow[], anyShipment = false): Order {
  const lines = items.map(toOrderLine);
  const first = lines[0]!;
  return {
    _id: row.id,
    productId: first.productId,
    productName: first.productName,
    orderQty: first.qty,
    orderEmail: row.orderEmail,
    productPrice: first.unitPrice,
    items: lines,
    subtotal: centsToUnits(items.reduce((sum, i) => sum + i.unitPriceCents * i.qty, 0)),
    coreDeposits: centsToUnits(items.reduce((sum, i) => sum + i.coreDepositCents * i.qty, 0)),
    shipping: centsToUnits(row.shippingCents),
    shippingMethod: row.shippingMethod,
    tax: centsToUnits(row.taxCents),
    taxName: row.taxName,
    taxRate: row.taxRateMillipercent === null ? null : row.taxRateMillipercent / 1000,
    taxNote: row.taxNote,
    buyerTaxId: row.buyerTaxId,
    total: centsToUnits(row.totalCents),
    currency: row.currency,
    phonrNo: row.phone,
    Address: row.address,
    poReference: row.poReference,
    paid: row.status === "paid" || row.status === "shipped",
    status: row.status,
    partiallyShipped: isPartlyShipped(row.status, anyShipment),
    transactionId: row.transactionId,
    testPayment: row.paidWith === "test-card",
    createdAt: row.createdAt.toISOString(),
    holdExpiresAt: row.holdExpiresAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    shippedAt: row.shippedAt?.toISOString() ?? null,
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    trackingUrl: trackingUrl(row.carrier, row.trackingNumber),
  };
}

function toOrderLine(item: OrderItemRow): OrderLine {
  return {
    productId: item.productId,
    productName: item.productName,
    partNumber: item.partNumber,
    unitPrice: centsToUnits(item.unitPriceCents),
    qty: item.qty,
    lineTotal: centsToUnits(item.unitPriceCents * item.qty),
    tax: centsToUnits(item.taxCents),
    vehicle: item.vehicleLabel,
    coreDeposit: centsToUnits(item.coreDepositCents),
  };
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

/** Orders with their lines, for the wire. */
export async function withLines(tx: DbOrTx, rows: OrderRow[]): Promise<Order[]> {
  const items = await linesOf(
    tx,
    rows.map((r) => r.id),
  );
  const shipped = await withShipments(
    tx,
    rows.filter((r) => r.status === "paid").map((r) => r.id),
  );
  const byOrder = new Map<string, OrderItemRow[]>();
  for (const item of items) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
  return rows.map((r) => toOrder(r, byOrder.get(r.id) ?? [], shipped.has(r.id)));
}

/** Gives back the stock of these orders' lines (they were just cancelled or are being deleted). */
async function releaseLinesOf(tx: DbOrTx, stock: StockMoves, orderIds: string[]) {
  const items = await linesOf(tx, orderIds);
  await stock.release(items);
}

/**
 * The one way an order that holds stock (unpaid, or awaiting approval) is cancelled: its row
 * marked cancelled, its stock given back, in the caller's stock transaction. The caller has
 * locked the row and checked its status. Admins' cancel and approvals' decline go through it.
 */
export async function cancelHoldingOrder(
  tx: DbOrTx,
  stock: StockMoves,
  id: string,
): Promise<{ row: OrderRow; items: OrderItemRow[] }> {
  const [row] = await tx
    .update(orders)
    .set({ status: "cancelled", cancelledAt: new Date() })
    .where(and(eq(orders.id, id), inArray(orders.status, holdingStatuses)))
    .returning();
  if (!row) throw unprocessable("Only unpaid orders can be cancelled");
  const items = await linesOf(tx, [id]);
  await stock.release(items);
  return { row, items };
}

/** Cancels a paid order: its stock goes back and its refund is written (docs/returns.md). */
async function cancelPaidOrder(
  tx: DbOrTx,
  stock: StockMoves,
  row: OrderRow,
  refundPaid: (tx: DbOrTx, row: OrderRow) => Promise<unknown>,
): Promise<{ row: OrderRow; items: OrderItemRow[] }> {
  const [updated] = await tx
    .update(orders)
    .set({ status: "cancelled", cancelledAt: new Date() })
    .where(and(eq(orders.id, row.id), eq(orders.status, "paid")))
    .returning();
  if (!updated) throw unprocessable("Only a paid order that has not shipped can be cancelled");
  const items = await linesOf(tx, [row.id]);
  await stock.release(items);
  await refundPaid(tx, row);
  return { row: updated, items };
}

/**
 * Cancels every unpaid order (or one awaiting approval) of a customer and returns their stock (used when an account is
 * removed); paid and shipped orders stay for the records. Inside the caller's stock transaction.
 */
export async function cancelHoldsOf(
  tx: DbOrTx,
  stock: StockMoves,
  userId: string,
): Promise<OrderRow[]> {
  const cancelled = await tx
    .update(orders)
    .set({ status: "cancelled", cancelledAt: new Date() })
    .where(and(eq(orders.userId, userId), inArray(orders.status, holdingStatuses)))
    .returning();
  await releaseLinesOf(
    tx,
    stock,
    cancelled.map((c) => c.id),
  );
  return cancelled;
}

export function createOrderService(
  db: Db,
  inventory: Inventory,
  opts: {
    currency: string;
    /** The order emails, queued in the transaction of each change. */
    notify?: OrderNotifier;
  },
) {
  const notify = opts.notify;

  return {
    async listForUser(userId: string): Promise<Order[]> {
      const rows = await db
        .select()
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.createdAt));
      return withLines(db, rows);
    },

    async listForEmail(email: string): Promise<Order[]> {
      const rows = await db
        .select()
        .from(orders)
        .where(eq(orders.orderEmail, email.toLowerCase()))
        .orderBy(desc(orders.createdAt));
      return withLines(db, rows);
    },

    /** One order, for its owner or an admin; others are told it does not exist. */
    async getVisible(id: string, viewer: { id: string; role: string }): Promise<Order> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      if (!row || (row.userId !== viewer.id && viewer.role !== "admin")) {
        throw notFound("Order not found");
      }
      const [order] = await withLines(db, [row]);
      return order!;
    },

    /** Admin: one order in full, with its payments and its history. */
    async detail(id: string): Promise<AdminOrderDetail> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      if (!row) throw notFound("Order not found");
      const [items, paymentRows] = await Promise.all([
        linesOf(db, [id]),
        db.select().from(payments).where(eq(payments.orderId, id)).orderBy(payments.createdAt),
      ]);
      const history: AdminOrderDetail["history"] = [
        { status: "placed" as const, at: row.createdAt },
        { status: "paid" as const, at: row.paidAt },
        { status: "shipped" as const, at: row.shippedAt },
        { status: "cancelled" as const, at: row.cancelledAt },
      ].flatMap((h) => (h.at ? [{ status: h.status, at: h.at.toISOString() }] : []));
      return {
        ...toOrder(row, items),
        customerName: row.customerName,
        payments: paymentRows.map((p) => ({
          gateway: p.gateway,
          transactionId: p.gatewayIntentId,
          status: p.status,
          amount: centsToUnits(p.amountCents),
          currency: p.currency,
          createdAt: p.createdAt.toISOString(),
        })),
        history: history.sort((a, b) => a.at.localeCompare(b.at)),
      };
    },

    /**
     * The owner deletes an unpaid order (or withdraws one awaiting approval); its stock goes back
     * to the products.
     */
    async deleteUnpaid(id: string, ownerId: string): Promise<void> {
      await inventory.transaction(async (stock, tx) => {
        const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
        if (!row || row.userId !== ownerId) throw notFound("Order not found");
        if (row.status !== "unpaid" && row.status !== "awaiting_approval") {
          throw unprocessable("Only unpaid orders can be deleted");
        }
        await releaseLinesOf(tx, stock, [id]);
        await tx.delete(orders).where(eq(orders.id, id));
      });
    },

    /** Admin: every order, newest first, filtered by status and searched by email or product. */
    async listAll(query: AdminOrdersQuery): Promise<{ items: AdminOrder[]; total: number }> {
      const filters: SQL[] = [];
      if (query.status) filters.push(eq(orders.status, query.status));
      if (query.q) {
        const pattern = containsPattern(query.q);
        filters.push(
          or(
            ilike(orders.orderEmail, pattern),
            exists(
              db
                .select({ one: sql`1` })
                .from(orderItems)
                .where(
                  and(eq(orderItems.orderId, orders.id), ilike(orderItems.productName, pattern)),
                ),
            ),
          )!,
        );
      }
      const where = filters.length > 0 ? and(...filters) : undefined;
      const [rows, [totalRow]] = await Promise.all([
        db
          .select()
          .from(orders)
          .where(where)
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(orders).where(where),
      ]);
      const withItems = await withLines(db, rows);
      return {
        items: withItems.map((o, i) => ({ ...o, customerName: rows[i]!.customerName })),
        total: totalRow?.total ?? 0,
      };
    },

    /**
     * Admin status changes, only along the allowed transitions: paid -> shipped, and
     * unpaid -> cancelled (the stock goes back).
     */
    async changeStatus(
      id: string,
      next: "shipped" | "cancelled",
      actor?: AuditActor,
      /**
       * Cancelling a paid (not shipped) order: writes its refund in this transaction (returns'
       * `addRefund`); without it a paid order cannot be cancelled.
       */
      refundPaid?: (tx: DbOrTx, row: OrderRow) => Promise<unknown>,
      /** Shipping only: the carrier and tracking number, stored on the order and emailed. */
      tracking?: ShipmentTracking,
    ): Promise<Order> {
      if (tracking && next !== "shipped") {
        throw new HttpError(400, "validation", trackingMessages.notWhenCancelling);
      }
      return inventory.transaction(async (stock, tx) => {
        const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
        if (!row) throw notFound("Order not found");
        if (row.status === next) {
          // Asked again (a double click): the same answer, unless it would change the tracking.
          const differs =
            tracking !== undefined &&
            (tracking.carrier !== row.carrier || tracking.trackingNumber !== row.trackingNumber);
          if (differs) {
            throw unprocessable("This order has already shipped; its tracking cannot be changed");
          }
          return toOrder(row, await linesOf(tx, [id]));
        }
        const paidCancel =
          next === "cancelled" && row.status === "paid" && refundPaid !== undefined;
        const allowed =
          next === "shipped"
            ? row.status === "paid"
            : row.status === "unpaid" || row.status === "awaiting_approval" || paidCancel;
        if (!allowed) {
          throw unprocessable(
            next === "shipped"
              ? `Only paid orders can be shipped; this one is ${row.status}`
              : `Only unpaid or paid (not shipped) orders can be cancelled; this one is ${row.status}`,
          );
        }
        // Some lines already shipped (docs/partial-shipment.md): those are returned, not cancelled.
        if (paidCancel && (await hasShipments(tx, id))) {
          throw unprocessable(shipmentMessages.cannotCancel);
        }
        const { row: updated, items } = paidCancel
          ? await cancelPaidOrder(tx, stock, row, refundPaid)
          : next === "cancelled"
            ? await cancelHoldingOrder(tx, stock, id)
            : {
                row: (
                  await tx
                    .update(orders)
                    .set({
                      status: next,
                      shippedAt: new Date(),
                      carrier: tracking?.carrier ?? null,
                      trackingNumber: tracking?.trackingNumber ?? null,
                    })
                    .where(eq(orders.id, id))
                    .returning()
                )[0],
                items: await linesOf(tx, [id]),
              };
        // The whole order (or what is left of it) ships as one shipment.
        if (next === "shipped") await shipTheRest(tx, id, tracking ?? null, updated!.shippedAt!);
        if (actor) {
          await recordAdminAction(tx, {
            actor,
            action: next === "shipped" ? "order.ship" : "order.cancel",
            target: { type: "order", id },
            summary:
              next === "shipped"
                ? `Shipped the order of ${row.orderEmail}${tracking ? ` with ${shippingCarrierLabels[tracking.carrier]}, tracking ${tracking.trackingNumber}` : " without tracking"}`
                : `Cancelled the order of ${row.orderEmail}`,
          });
        }
        const changed = toOrder(updated!, items);
        if (next === "shipped") await notify?.shipped(tx, changed, updated!.customerName);
        else await notify?.cancelledByStore(tx, changed, updated!.customerName);
        return changed;
      });
    },

    /** Admin overview: counts by status, and orders and revenue per day for the last 30 days. */
    async overview(): Promise<OrdersOverview> {
      const statusRows = await db
        .select({ status: orders.status, n: count() })
        .from(orders)
        .groupBy(orders.status);
      const byStatus = Object.fromEntries(orderStatuses.map((s) => [s, 0])) as Record<
        (typeof orderStatuses)[number],
        number
      >;
      for (const r of statusRows) byStatus[r.status] = r.n;
      const days = await db.execute<{ date: string; orders: number; revenue_cents: number }>(sql`
        select to_char(d, 'YYYY-MM-DD') as date,
          (select count(*)::int from orders o
             where o.created_at >= d and o.created_at < d + interval '1 day') as orders,
          (select coalesce(sum(o.total_cents), 0)::bigint from orders o
             where o.status in ('paid', 'shipped')
               and o.paid_at >= d and o.paid_at < d + interval '1 day') as revenue_cents
        from generate_series(date_trunc('day', now()) - interval '29 days',
                             date_trunc('day', now()), interval '1 day') as d
        order by d`);
      return {
        byStatus,
        days: days.rows.map((r) => ({
          date: r.date,
          orders: Number(r.orders),
          revenue: centsToUnits(Number(r.revenue_cents)),
        })),
        currency: opts.currency,
      };
    },

    /** Admin: who holds stock in unpaid orders, the largest holders (by value) first. */
    async holdsByAccount(): Promise<AccountHolds[]> {
      const rows = await db.execute<{
        user_id: string;
        order_email: string;
        customer_name: string;
        orders: number;
        units: number;
        value_cents: string;
        currency: string;
        first_expires_at: Date;
      }>(sql`
        select o.user_id, min(o.order_email) as order_email,
               min(o.customer_name) as customer_name, count(distinct o.id)::int as orders,
               sum(i.qty)::int as units, sum(i.qty * i.unit_price_cents)::bigint as value_cents,
               min(o.currency) as currency, min(o.hold_expires_at) as first_expires_at
        from orders o join order_items i on i.order_id = o.id
        where o.status in ('unpaid', 'awaiting_approval') and o.user_id is not null
        group by o.user_id
        order by value_cents desc, o.user_id
        limit 500`);
      return rows.rows.map((r) => ({
        userId: r.user_id,
        orderEmail: r.order_email,
        customerName: r.customer_name,
        orders: r.orders,
        units: r.units,
        value: centsToUnits(Number(r.value_cents)),
        currency: r.currency,
        firstExpiresAt: new Date(r.first_expires_at).toISOString(),
      }));
    },

    /**
     * Admin: cancels every unpaid order of one account in one action; their stock comes back.
     * Resolves to the ids of the orders cancelled (their open payments are the caller's).
     */
    async cancelHoldsOfAccount(userId: string, actor?: AuditActor): Promise<string[]> {
      return inventory.transaction(async (stock, tx) => {
        const [account] = await tx
          .select({ id: user.id, email: user.email })
          .from(user)
          .where(eq(user.id, userId));
        if (!account) throw notFound("User not found");
        const cancelled = await cancelHoldsOf(tx, stock, userId);
        if (actor) {
          await recordAdminAction(tx, {
            actor,
            action: "order.cancel-holds",
            target: { type: "user", id: userId },
            summary: `Cancelled ${cancelled.length} unpaid orders of ${account.email}`,
          });
        }
        if (notify) {
          for (const [i, order] of (await withLines(tx, cancelled)).entries()) {
            await notify.cancelledByStore(tx, order, cancelled[i]!.customerName);
          }
        }
        return cancelled.map((c) => c.id);
      });
    },

    /**
     * Cancels unpaid orders whose hold has expired and returns their stock. Safe with several
     * server processes: one sweeper at a time (advisory lock), and rows locked while they change.
     */
    async cancelExpired(): Promise<number> {
      return inventory.transaction(async (stock, tx) => {
        const lock = await tx.execute<{ ok: boolean }>(tryLockFor(advisoryLocks.holdSweeper));
        if (!lock.rows[0]?.ok) return 0;
        const expired = await tx
          .update(orders)
          .set({ status: "cancelled", cancelledAt: sql`now()` })
          .where(
            inArray(
              orders.id,
              sql`(select id from orders
                    where status in ('unpaid', 'awaiting_approval')
                      and hold_expires_at < now()
                    for update skip locked)`,
            ),
          )
          .returning();
        await releaseLinesOf(
          tx,
          stock,
          expired.map((r) => r.id),
        );
        if (notify) {
          const cancelled = await withLines(tx, expired);
          // Those still awaiting a company owner's approval (docs/approvals.md) say so.
          const undecided = new Set(
            expired.length === 0
              ? []
              : (
                  await tx
                    .select({ orderId: orderApprovals.orderId })
                    .from(orderApprovals)
                    .where(
                      and(
                        inArray(
                          orderApprovals.orderId,
                          expired.map((r) => r.id),
                        ),
                        isNull(orderApprovals.decision),
                      ),
                    )
                ).map((r) => r.orderId),
          );
          for (const [i, order] of cancelled.entries()) {
            await notify.holdExpired(tx, order, expired[i]!.customerName, {
              notApproved: undecided.has(order._id),
            });
          }
        }
        return expired.length;
      });
    },

    /**
     * Queues "your hold is about to expire" for unpaid orders whose hold ends within `beforeMs`,
     * once per order (marked in the same transaction). Orders placed with less hold than that
     * left are not reminded: they were told the end when they ordered.
     */
    async warnExpiring(beforeMs: number): Promise<number> {
      return db.transaction(async (tx) => {
        const lock = await tx.execute<{ ok: boolean }>(tryLockFor(advisoryLocks.holdWarnings));
        if (!lock.rows[0]?.ok) return 0;
        const before = sql`make_interval(secs => ${beforeMs / 1000})`;
        const due = await tx
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
        if (notify) {
          const warned = await withLines(tx, due);
          for (const [i, order] of warned.entries()) {
            await notify.holdExpiring(tx, order, due[i]!.customerName);
          }
        }
        return due.length;
      });
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
