import { and, count, desc, eq, exists, ilike, or, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  orderNumberText,
  orderStatuses,
  parseOrderNumber,
  WARRANTY_REPLACEMENT,
  type AdminOrder,
  type AdminOrderDetail,
  type AccountHolds,
  type AdminOrdersQuery,
  type Order,
  type OrderLine,
  type OrdersOverview,
} from "../../contract/orders";
import { trackingUrl } from "../../contract/shipping-carriers";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import { pageOf } from "../db/page";
import { orderItems, orders } from "./tables";
import { user } from "../users/tables";
import { notFound, unprocessable } from "../errors";
import type { Inventory } from "../inventory/service";
import type { OrderNotifier } from "./notifier";
import { centsToUnits } from "../money";
import { advisoryLocks, tryLockFor } from "../db/advisory-locks";

import {
  cancelHoldsOf,
  deleteHoldingOrder,
  isPartlyShipped,
  linesOf,
  lockOrder,
  markHoldsWarned,
  type OrderItemRow,
  type OrderRow,
} from "./state";

/** An order for the wire. */
export function toOrder(row: OrderRow, items: OrderItemRow[]): Order {
  const lines = items.map(toOrderLine);
  const first = lines[0]!;
  return {
    _id: row.id,
    number: orderNumberText(row.number),
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
    discount: row.discountCode
      ? { code: row.discountCode, amount: centsToUnits(row.discountCents) }
      : null,
    total: centsToUnits(row.totalCents),
    pricesIncludeTax: row.pricesIncludeTax,
    currency: row.currency,
    phonrNo: row.phone,
    Address: row.address,
    poReference: row.poReference,
    paid: row.status === "paid" || row.status === "shipped",
    status: row.status,
    cancelReason: row.status === "cancelled" ? row.cancelReason : null,
    partiallyShipped: isPartlyShipped(row),
    transactionId: row.transactionId,
    testPayment: row.paidWith === "test-card",
    warrantyClaim:
      row.paidWith === WARRANTY_REPLACEMENT && row.transactionId
        ? row.transactionId.slice(WARRANTY_REPLACEMENT.length + 1)
        : null,
    account:
      row.accountInvoiceNumber && row.accountDueAt
        ? {
            invoiceNumber: row.accountInvoiceNumber,
            dueAt: row.accountDueAt.toISOString(),
            settled: row.accountSettledAt !== null,
            creditedInFull: row.accountCreditedInFull,
          }
        : null,
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

/** Orders with their lines, for the wire. */
export async function withLines(tx: DbOrTx, rows: OrderRow[]): Promise<Order[]> {
  const items = await linesOf(
    tx,
    rows.map((r) => r.id),
  );
  const byOrder = new Map<string, OrderItemRow[]>();
  for (const item of items) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
  return rows.map((r) => toOrder(r, byOrder.get(r.id) ?? []));
}

/** Who asks to see an order, or what belongs to one (its returns, invoice, shipments). */
export interface OrderViewer {
  id: string;
  role: string;
}

/** Whether the viewer may see what `ownerId` owns (an order, a return): its owner or an admin. */
export const ownerOrAdmin = (ownerId: string | null, viewer: OrderViewer): boolean =>
  ownerId === viewer.id || viewer.role === "admin";

/**
 * The order's row for its owner or an admin (with `lock`, locked against key updates until the
 * transaction ends); anyone else is told it does not exist.
 */
export async function visibleOrder(
  tx: DbOrTx,
  id: string,
  viewer: OrderViewer,
  lock = false,
): Promise<OrderRow> {
  const q = tx.select().from(orders).where(eq(orders.id, id));
  const [row] = lock ? await q.for("no key update") : await q;
  if (!row || !ownerOrAdmin(row.userId, viewer)) throw notFound("Order not found");
  return row;
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
    async getVisible(id: string, viewer: OrderViewer): Promise<Order> {
      const [order] = await withLines(db, [await visibleOrder(db, id, viewer)]);
      return order!;
    },

    /** Admin: one order in full with its history (its payments are the payments module's). */
    async detail(id: string): Promise<Omit<AdminOrderDetail, "payments">> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      if (!row) throw notFound("Order not found");
      const items = await linesOf(db, [id]);
      const history: AdminOrderDetail["history"] = [
        { status: "placed" as const, at: row.createdAt },
        { status: "paid" as const, at: row.paidAt },
        { status: "shipped" as const, at: row.shippedAt },
        { status: "cancelled" as const, at: row.cancelledAt },
      ].flatMap((h) => (h.at ? [{ status: h.status, at: h.at.toISOString() }] : []));
      return {
        ...toOrder(row, items),
        customerName: row.customerName,
        history: history.sort((a, b) => a.at.localeCompare(b.at)),
      };
    },

    /**
     * The owner deletes an unpaid order (or withdraws one awaiting approval); its stock goes back
     * to the products.
     */
    async deleteUnpaid(id: string, ownerId: string): Promise<void> {
      await inventory.transaction(async (stock, tx) => {
        const row = await lockOrder(tx, id);
        if (!row || row.userId !== ownerId) throw notFound("Order not found");
        if (row.status !== "unpaid" && row.status !== "awaiting_approval") {
          throw unprocessable("Only unpaid orders can be deleted");
        }
        await deleteHoldingOrder(tx, stock, id);
      });
    },

    /** Admin: every order, newest first, filtered by status and searched by email, product or order number. */
    async listAll(query: AdminOrdersQuery): Promise<{ items: AdminOrder[]; total: number }> {
      const filters: SQL[] = [];
      if (query.status) filters.push(eq(orders.status, query.status));
      if (query.q) {
        const pattern = containsPattern(query.q);
        filters.push(
          or(
            ilike(orders.orderEmail, pattern),
            // An order named by its number ("PW-100234", or the digits alone).
            ...(parseOrderNumber(query.q) !== null
              ? [eq(orders.number, parseOrderNumber(query.q)!)]
              : []),
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
      const newestFirst = db
        .select()
        .from(orders)
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id));
      const { rows, total } = await pageOf(db, newestFirst, orders, where, query);
      const withItems = await withLines(db, rows);
      return {
        items: withItems.map((o, i) => ({ ...o, customerName: rows[i]!.customerName })),
        total,
      };
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
          -- In the store's currency: each order at its own rate (docs/pricing.md "Markets").
          (select coalesce(sum(round(o.total_cents / o.exchange_rate)), 0)::bigint from orders o
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
        const cancelled = await cancelHoldsOf(tx, stock, userId, "store");
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
     * Queues "your hold is about to expire" for unpaid orders whose hold ends within `beforeMs`,
     * once per order (marked in the same transaction). Orders placed with less hold than that
     * left are not reminded: they were told the end when they ordered.
     */
    async warnExpiring(beforeMs: number): Promise<number> {
      return db.transaction(async (tx) => {
        const lock = await tx.execute<{ ok: boolean }>(tryLockFor(advisoryLocks.holdWarnings));
        if (!lock.rows[0]?.ok) return 0;
        const due = await markHoldsWarned(tx, beforeMs);
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
