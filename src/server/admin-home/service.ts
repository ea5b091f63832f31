import { orderNumberText } from "../../contract/orders";
import { and, asc, count, eq, inArray, isNotNull, isNull, lte, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  ADMIN_HOME_ROWS,
  LOW_STOCK_ROWS,
  type AdminHome,
  type LowAtLocation,
  type LowStockProduct,
} from "../../contract/admin-home";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { pageOf } from "../db/page";
import type { LowStockEmailSettings } from "./low-stock-settings";
import { lowStockEmails } from "./tables";
import { orders } from "../orders/tables";
import { payments } from "../payments/tables";
import { products } from "../catalog/tables";
import { setReorderLevel } from "../catalog/writes";
import { quotes } from "../quotes/tables";
import { returnRequests } from "../returns/tables";
import { countRefundsToRetry, refundsToRetry, toRefundToRetry } from "../returns/refunds";
import { reviews } from "../reviews/tables";
import { storeAdmins } from "../users/admins";
import { notFound } from "../errors";
import { lowAtLocations } from "../inventory/low-stock";
import { waitingBackorders } from "../inventory/backorder-queue";

/** A product's reorder level: the admin's, else twice its minimum order. */
const reorderLevel = sql<number>`coalesce(${products.reorderLevel}, 2 * ${products.minimumOrder})`;
const isLow = sql`${products.availableQuantity} < ${reorderLevel}`;

const lowStockColumns = {
  id: products.id,
  name: products.name,
  partNumber: products.partNumber,
  availableQuantity: products.availableQuantity,
  reorderLevel: sql<number>`${reorderLevel}::int`,
  reorderLevelSet: sql<boolean>`${products.reorderLevel} is not null`,
};

/** Products below their reorder level, least stock first, and how many there are in all. */
async function lowStock(
  db: DbOrTx,
  limit: number,
): Promise<{ count: number; products: LowStockProduct[] }> {
  const [rows, [total]] = await Promise.all([
    db
      .select(lowStockColumns)
      .from(products)
      .where(isLow)
      .orderBy(asc(products.availableQuantity), asc(products.name), asc(products.id))
      .limit(limit),
    db.select({ n: count() }).from(products).where(isLow),
  ]);
  return { count: total?.n ?? 0, products: rows };
}

export interface LowStockMail {
  /** Queues the email to one admin (in `tx`, with the day's record). */
  send(
    tx: DbOrTx,
    admin: { id: string; email: string; name: string },
    day: string,
    low: { count: number; products: LowStockProduct[] },
    atLocations: { count: number; rows: LowAtLocation[] },
  ): Promise<void>;
}

/**
 * The admin's home, "Today": what is waiting for an admin (docs/admin-home.md), and the products'
 * reorder levels it watches. It only reads the other modules' tables, for counts and short lists.
 */
export function createAdminHomeService(
  db: Db,
  opts: {
    /** How long before a hold ends it is listed: the order limits' reminder (orders/limits.ts). */
    holdWarningMs: () => Promise<number>;
    lowStockMail: LowStockMail;
    /** Whether the daily low-stock email goes, and from which hour: as an admin set it on Today. */
    lowStockEmail: Pick<LowStockEmailSettings, "inForce">;
  },
) {
  return {
    async today(now = new Date()): Promise<AdminHome> {
      const holdWarningMs = await opts.holdWarningMs();
      const expiringBefore = new Date(now.getTime() + holdWarningMs);
      const toShip = and(eq(orders.status, "paid"), isNull(orders.shippedAt));
      const expiring = and(eq(orders.status, "unpaid"), lte(orders.holdExpiresAt, expiringBefore));
      const orderRow = {
        id: orders.id,
        number: orders.number,
        customerName: orders.customerName,
        totalCents: orders.totalCents,
        currency: orders.currency,
      };
      /** The first orders `where` picks by `at` (then id), as many as shown, and how many. */
      const firstOrders = (
        where: SQL | undefined,
        at: typeof orders.paidAt | typeof orders.holdExpiresAt,
      ) =>
        pageOf(
          db,
          db
            .select({ ...orderRow, at })
            .from(orders)
            .where(where)
            .orderBy(asc(at), asc(orders.id)),
          orders,
          where,
          { limit: ADMIN_HOME_ROWS, offset: 0 },
        );
      const [
        ship,
        hold,
        low,
        [reviewCount],
        [quoteCount],
        [returnCount],
        [approvalCount],
        [refundCount],
        retryCount,
        retryRows,
        atLocations,
        waiting,
      ] = await Promise.all([
        firstOrders(toShip, orders.paidAt),
        firstOrders(expiring, orders.holdExpiresAt),
        lowStock(db, LOW_STOCK_ROWS),
        db
          .select({ n: count() })
          .from(reviews)
          .where(and(isNotNull(reviews.pendingSince), isNull(reviews.hiddenAt))),
        db.select({ n: count() }).from(quotes).where(eq(quotes.status, "requested")),
        db
          .select({ n: count() })
          .from(returnRequests)
          .where(inArray(returnRequests.status, ["requested", "approved", "refund_failed"])),
        db.select({ n: count() }).from(orders).where(eq(orders.status, "awaiting_approval")),
        db.select({ n: count() }).from(payments).where(eq(payments.status, "refund_due")),
        countRefundsToRetry(db, now),
        refundsToRetry(db, now, ADMIN_HOME_ROWS),
        lowAtLocations(db, LOW_STOCK_ROWS),
        waitingBackorders(db),
      ]);
      const row = (r: (typeof ship.rows)[number]) => ({
        id: r.id,
        orderNumber: orderNumberText(r.number),
        customerName: r.customerName,
        totalCents: r.totalCents,
        currency: r.currency,
        at: (r.at ?? now).toISOString(),
      });
      return {
        toShip: { count: ship.total, oldest: ship.rows.map(row) },
        expiringHolds: {
          count: hold.total,
          withinMinutes: Math.round(holdWarningMs / 60_000),
          soonest: hold.rows.map(row),
        },
        lowStock: low,
        lowAtLocations: atLocations,
        backorders: waiting,
        reviewsToModerate: reviewCount?.n ?? 0,
        quotesToPrice: quoteCount?.n ?? 0,
        returnsToHandle: returnCount?.n ?? 0,
        approvalsWaiting: approvalCount?.n ?? 0,
        refundsDue: refundCount?.n ?? 0,
        refundsToRetry: { count: retryCount, oldest: retryRows.map(toRefundToRetry) },
      };
    },

    /** Sets (or, with null, clears back to the default) one product's reorder level. */
    async setReorderLevel(productId: string, level: number | null, actor: AuditActor) {
      return db.transaction(async (tx) => {
        const product = await setReorderLevel(tx, productId, level);
        if (!product) throw notFound("Product not found");
        // The admin's level, else twice the minimum order (as `reorderLevel` above).
        const row = { ...product, reorderLevel: level ?? 2 * product.minimumOrder };
        await recordAdminAction(tx, {
          actor,
          action: "product.reorder-level",
          target: { type: "product", id: productId },
          summary:
            level === null
              ? `Reset the reorder level of ${row.partNumber} ${row.name} to the default (${row.reorderLevel})`
              : `Set the reorder level of ${row.partNumber} ${row.name} to ${level}`,
        });
        return { productId, reorderLevel: row.reorderLevel, reorderLevelSet: level !== null };
      });
    },

    /**
     * The day's low-stock email to every admin, once a day (UTC) from the hour an admin set, while
     * it is on: the day's row in low_stock_emails is written with the mails, so a second run (or
     * process) sends nothing. Parts low at a location (below the level set there) count as low
     * too. Nothing low, nothing sent (a later run that day looks again). Resolves to the emails
     * queued.
     */
    async sendLowStockEmail(now = new Date()): Promise<number> {
      const { enabled, hourUtc } = await opts.lowStockEmail.inForce();
      if (!enabled || now.getUTCHours() < hourUtc) return 0;
      const day = now.toISOString().slice(0, 10);
      return db.transaction(async (tx) => {
        const low = await lowStock(tx, LOW_STOCK_ROWS);
        const atLocations = await lowAtLocations(tx, LOW_STOCK_ROWS);
        if (low.count + atLocations.count === 0) return 0;
        const [claimed] = await tx
          .insert(lowStockEmails)
          .values({ day, productCount: low.count + atLocations.count })
          .onConflictDoNothing()
          .returning({ day: lowStockEmails.day });
        if (!claimed) return 0;
        const admins = await storeAdmins(tx);
        for (const admin of admins) {
          await opts.lowStockMail.send(tx, admin, day, low, atLocations);
        }
        return admins.length;
      });
    },
  };
}

export type AdminHomeService = ReturnType<typeof createAdminHomeService>;
