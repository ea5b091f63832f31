import { and, count, desc, eq, getTableColumns, ilike, or, sql, type SQL } from "drizzle-orm";
import {
  orderMessages,
  orderStatuses,
  type AdminOrder,
  type AdminOrdersQuery,
  type Order,
  type OrderCreate,
  type OrdersOverview,
} from "../../contract/orders";
import type pg from "pg";
import type { Db, DbOrTx } from "../db/database";
import { orders, products } from "../db/schema";
import { conflict, notFound, unprocessable } from "../errors";
import { centsToUnits } from "../money";
import { containsPattern } from "../db/like";

type OrderRow = typeof orders.$inferSelect;

/** What the place-order statement answers: the order's columns, or why nothing was reserved. */
type PlaceOrderRow = Record<string, unknown> & {
  id: string | null;
  refused_minimum_order: number | null;
  refused_available_quantity: number | null;
};

export function toOrder(row: OrderRow): Order {
  return {
    _id: row.id,
    productId: row.productId,
    productName: row.productName,
    orderQty: row.orderQty,
    orderEmail: row.orderEmail,
    productPrice: centsToUnits(row.unitPriceCents),
    total: centsToUnits(row.totalCents),
    currency: row.currency,
    phonrNo: row.phone,
    Address: row.address,
    paid: row.status === "paid" || row.status === "shipped",
    status: row.status,
    transactionId: row.transactionId,
    createdAt: row.createdAt.toISOString(),
    holdExpiresAt: row.holdExpiresAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    shippedAt: row.shippedAt?.toISOString() ?? null,
  };
}

export interface Customer {
  id: string;
  email: string;
  name: string;
}

const UNIQUE_VIOLATION = "23505";

/** The stock a product gets back when an order that held it goes away. */
export async function returnStock(tx: DbOrTx, productId: string | null, qty: number) {
  if (!productId) return;
  await tx
    .update(products)
    .set({ availableQuantity: sql`${products.availableQuantity} + ${qty}` })
    .where(eq(products.id, productId));
}

/**
 * Cancels every unpaid order of a customer and returns their stock (used when an account is
 * removed); paid and shipped orders stay for the records. Pass the caller's transaction.
 */
export async function cancelUnpaidOrdersOf(tx: DbOrTx, userId: string): Promise<number> {
  const cancelled = await tx
    .update(orders)
    .set({ status: "cancelled", cancelledAt: new Date() })
    .where(and(eq(orders.userId, userId), eq(orders.status, "unpaid")))
    .returning({ productId: orders.productId, qty: orders.orderQty });
  for (const c of cancelled) await returnStock(tx, c.productId, c.qty);
  return cancelled.length;
}

export function createOrderService(
  db: Db,
  opts: { currency: string; holdMs: number; pool: pg.Pool },
) {
  return {
    /**
     * Places an order in one statement: the stock is reserved by a conditional UPDATE (never
     * oversold, whatever the concurrency) and the order row inserted from what it returns, so
     * the product row is locked only for that statement. The unique index on unpaid orders per
     * customer and product makes a duplicate fail the whole statement (409). When nothing was
     * reserved, the same statement also answers why (the product as it stood when the statement
     * began), so a refusal costs no second round trip; only when that old view says the order
     * should have fitted (another order took the stock meanwhile) is the product read again.
     */
    async place(customer: Customer, input: OrderCreate): Promise<Order> {
      const holdExpiresAt = new Date(Date.now() + opts.holdMs);
      let raw: PlaceOrderRow;
      try {
        // A prepared statement of the pool: the hottest write of the store.
        const result = await opts.pool.query<PlaceOrderRow>({
          name: "place-order",
          text: `with reserved as (
                   update products set available_quantity = available_quantity - $1
                   where id = $2 and available_quantity >= $1 and minimum_order <= $1
                   returning id, name, price_cents
                 ), placed as (
                   insert into orders (product_id, user_id, order_email, customer_name,
                                       product_name, unit_price_cents, order_qty, total_cents,
                                       currency, phone, address, hold_expires_at)
                   select id, $3, $4, $5, name, price_cents, $1, price_cents * $1, $6, $7, $8, $9
                   from reserved
                   returning *
                 )
                 select placed.*, p.minimum_order as refused_minimum_order,
                        p.available_quantity as refused_available_quantity
                 from (select) as one
                 left join placed on true
                 left join products p on placed.id is null and p.id = $2`,
          values: [
            input.orderQty,
            input.productId,
            customer.id,
            customer.email,
            customer.name,
            opts.currency,
            input.phonrNo,
            input.Address,
            holdExpiresAt,
          ],
        });
        raw = result.rows[0]!;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(orderMessages.duplicate);
        throw err;
      }
      if (raw.id !== null) return toOrder(fromRawOrder(raw));

      let product = {
        minimumOrder: raw.refused_minimum_order,
        availableQuantity: raw.refused_available_quantity,
      };
      if (
        product.minimumOrder !== null &&
        product.availableQuantity !== null &&
        input.orderQty >= product.minimumOrder &&
        input.orderQty <= product.availableQuantity
      ) {
        // The statement's view of the product predates the order that took its stock.
        const [now] = await db.select().from(products).where(eq(products.id, input.productId));
        product = now ?? { minimumOrder: null, availableQuantity: null };
      }
      if (product.minimumOrder === null || product.availableQuantity === null) {
        throw notFound("Product not found");
      }
      if (input.orderQty < product.minimumOrder) {
        throw unprocessable(orderMessages.atLeast(product.minimumOrder));
      }
      throw unprocessable(orderMessages.lessThen(product.availableQuantity));
    },

    async listForUser(userId: string): Promise<Order[]> {
      const rows = await db
        .select()
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(desc(orders.createdAt));
      return rows.map(toOrder);
    },

    async listForEmail(email: string): Promise<Order[]> {
      const rows = await db
        .select()
        .from(orders)
        .where(eq(orders.orderEmail, email.toLowerCase()))
        .orderBy(desc(orders.createdAt));
      return rows.map(toOrder);
    },

    /** One order, for its owner or an admin; others are told it does not exist. */
    async getVisible(id: string, viewer: { id: string; role: string }): Promise<Order> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      if (!row || (row.userId !== viewer.id && viewer.role !== "admin")) {
        throw notFound("Order not found");
      }
      return toOrder(row);
    },

    /** The owner deletes an unpaid order; its stock goes back to the product. */
    async deleteUnpaid(id: string, ownerId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
        if (!row || row.userId !== ownerId) throw notFound("Order not found");
        if (row.status !== "unpaid") {
          throw unprocessable("Only unpaid orders can be deleted");
        }
        await tx.delete(orders).where(eq(orders.id, id));
        await returnStock(tx, row.productId, row.orderQty);
      });
    },

    /** Admin: every order, newest first, filtered by status and searched by email or product. */
    async listAll(query: AdminOrdersQuery): Promise<{ items: AdminOrder[]; total: number }> {
      const filters: SQL[] = [];
      if (query.status) filters.push(eq(orders.status, query.status));
      if (query.q) {
        const pattern = containsPattern(query.q);
        filters.push(or(ilike(orders.orderEmail, pattern), ilike(orders.productName, pattern))!);
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
      return {
        items: rows.map((r) => ({ ...toOrder(r), customerName: r.customerName })),
        total: totalRow?.total ?? 0,
      };
    },

    /**
     * Admin status changes, only along the allowed transitions: paid -> shipped, and
     * unpaid -> cancelled (the stock goes back).
     */
    async changeStatus(id: string, next: "shipped" | "cancelled"): Promise<Order> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
        if (!row) throw notFound("Order not found");
        if (row.status === next) return toOrder(row);
        const allowed = next === "shipped" ? row.status === "paid" : row.status === "unpaid";
        if (!allowed) {
          throw unprocessable(
            next === "shipped"
              ? `Only paid orders can be shipped; this one is ${row.status}`
              : `Only unpaid orders can be cancelled; this one is ${row.status}`,
          );
        }
        const now = new Date();
        const [updated] = await tx
          .update(orders)
          .set(
            next === "shipped"
              ? { status: next, shippedAt: now }
              : { status: next, cancelledAt: now },
          )
          .where(eq(orders.id, id))
          .returning();
        if (next === "cancelled") await returnStock(tx, row.productId, row.orderQty);
        return toOrder(updated!);
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

    /**
     * Cancels unpaid orders whose hold has expired and returns their stock. Safe with several
     * server processes: one sweeper at a time (advisory lock), and rows locked while they change.
     */
    async cancelExpired(): Promise<number> {
      return db.transaction(async (tx) => {
        const lock = await tx.execute<{ ok: boolean }>(
          sql`select pg_try_advisory_xact_lock(7345003) as ok`,
        );
        if (!lock.rows[0]?.ok) return 0;
        const expired = await tx.execute<{ n: number }>(sql`
          with expired as (
            update orders set status = 'cancelled', cancelled_at = now()
            where id in (
              select id from orders
              where status = 'unpaid' and hold_expires_at < now()
              for update skip locked
            )
            returning product_id, order_qty
          ), returned as (
            update products p set available_quantity = p.available_quantity + e.qty
            from (select product_id, sum(order_qty)::int as qty from expired
                  where product_id is not null group by product_id) e
            where p.id = e.product_id
          )
          select count(*)::int as n from expired`);
        return expired.rows[0]?.n ?? 0;
      });
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

const orderColumns = Object.entries(getTableColumns(orders));

/** A raw row of `orders` (column names, driver values) into Drizzle's shape. */
function fromRawOrder(raw: Record<string, unknown>): OrderRow {
  return Object.fromEntries(
    orderColumns.map(([key, col]) => {
      const value = raw[col.name];
      return [key, value === null || value === undefined ? null : col.mapFromDriverValue(value)];
    }),
  ) as OrderRow;
}

function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  while (e && typeof e === "object") {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
