import { and, eq, inArray } from "drizzle-orm";
import type { Intent } from "../../contract/payments";
import type { Order } from "../../contract/orders";
import type { Db } from "../db/database";
import { holdWindows, orders, payments, webhookEvents } from "../db/schema";
import { conflict, HttpError, notFound, unprocessable } from "../errors";
import type { Inventory } from "../inventory/service";
import { centsToUnits } from "../money";
import { linesOf, toOrder } from "../orders/service";
import type { OrderNotifier } from "../orders/notifier";
import type { GatewayIntent, PaymentGateway } from "./gateway";

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const notVerified = () =>
  unprocessable("The payment could not be verified. If you were charged, contact us.");

export function createPaymentService(
  db: Db,
  inventory: Inventory,
  gateway: PaymentGateway,
  log: Logger,
  notify?: OrderNotifier,
) {
  const loadOwnOrder = async (orderId: string, userId: string) => {
    const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!row || row.userId !== userId) throw notFound("Order not found");
    return row;
  };

  return {
    gateway: gateway.name,

    /** Opens a payment at the gateway for the order's amount, computed here, never sent in. */
    async createIntent(orderId: string, userId: string): Promise<Intent> {
      const order = await loadOwnOrder(orderId, userId);
      if (order.status === "paid" || order.status === "shipped") {
        throw conflict("This order is already paid");
      }
      if (order.status === "cancelled") {
        throw unprocessable("This order was cancelled: its hold on the stock ran out");
      }
      const intent = await gateway.createIntent({
        orderId: order.id,
        amountCents: order.totalCents,
        currency: order.currency,
        idempotencyKey: `order-${order.id}-${order.totalCents}-${order.currency}`,
      });
      await db
        .insert(payments)
        .values({
          orderId: order.id,
          gateway: gateway.name,
          gatewayIntentId: intent.id,
          amountCents: intent.amountCents,
          currency: intent.currency,
          status: intent.status,
        })
        .onConflictDoNothing({ target: payments.gatewayIntentId });
      return {
        clientSecret: intent.clientSecret,
        amount: centsToUnits(order.totalCents),
        currency: order.currency,
        gateway: gateway.name,
      };
    },

    /**
     * Marks an order paid after asking the gateway about the transaction: it must have succeeded,
     * for this order, for the order's amount and currency. Paying twice changes nothing.
     */
    async confirmPaid(orderId: string, transactionId: string, ownerId?: string): Promise<Order> {
      const order = ownerId
        ? await loadOwnOrder(orderId, ownerId)
        : (await db.select().from(orders).where(eq(orders.id, orderId)))[0];
      if (!order) throw notFound("Order not found");
      const intent = await gateway.retrieveIntent(transactionId);
      if (!intent || !matches(intent, order)) throw notVerified();
      return markPaid(inventory, order.id, intent, gateway.name, log, notify);
    },

    /**
     * Whether the caller owns the order a client secret pays for. A client secret is a bearer
     * capability (Stripe's design); we also tie it to the order's owner.
     */
    async ownsIntent(clientSecret: string, userId: string): Promise<boolean> {
      const intentId = clientSecret.split("_secret_")[0] ?? "";
      const [row] = await db
        .select({ userId: orders.userId })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(eq(payments.gatewayIntentId, intentId));
      return row?.userId === userId;
    },

    /** A verified gateway event: record it once, and mark its order paid. */
    async handleSucceededEvent(eventId: string, eventType: string, intent: GatewayIntent) {
      const [seen] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
      if (seen) return "duplicate" as const;
      if (intent.orderId) {
        const [order] = await db.select().from(orders).where(eq(orders.id, intent.orderId));
        if (order && matches(intent, order))
          await markPaid(inventory, order.id, intent, gateway.name, log, notify);
        else log.warn({ eventId, intent: intent.id }, "payment event for an unknown order");
      }
      await db
        .insert(webhookEvents)
        .values({ id: eventId, gateway: gateway.name, type: eventType })
        .onConflictDoNothing();
      return "handled" as const;
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;

/** Whether a cancelled order was cancelled because its hold ran out (not by the store). */
function holdRanOut(order: typeof orders.$inferSelect): boolean {
  return order.cancelledAt !== null && order.holdExpiresAt <= order.cancelledAt;
}

function matches(intent: GatewayIntent, order: typeof orders.$inferSelect): boolean {
  return (
    intent.status === "succeeded" &&
    intent.orderId === order.id &&
    intent.amountCents === order.totalCents &&
    intent.currency.toLowerCase() === order.currency.toLowerCase()
  );
}

/**
 * Marks an order paid, once: the order row is locked, so a payment confirmed twice at once (the
 * page and the webhook) records one payment.
 */
async function markPaid(
  inventory: Inventory,
  orderId: string,
  intent: GatewayIntent,
  paidWith: PaymentGateway["name"],
  log: Logger,
  notify: OrderNotifier | undefined,
) {
  return inventory.transaction(async (stock, tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) throw notFound("Order not found");
    const items = await linesOf(tx, [orderId]);
    await tx
      .update(payments)
      .set({ status: "succeeded", updatedAt: new Date() })
      .where(eq(payments.gatewayIntentId, intent.id));
    if (order.status === "paid" || order.status === "shipped") {
      if (order.transactionId === intent.id) return toOrder(order, items);
      log.error({ orderId, intent: intent.id }, "second successful payment for a paid order");
      throw conflict("This order is already paid");
    }
    if (order.status === "cancelled") {
      // The hold ran out while the customer paid: take every line's stock again if it is still
      // there (the minimum was met when the order was placed), else nothing and a refund. An
      // order the store cancelled (an admin, an account removal) before its hold ran out stays
      // cancelled whatever arrives.
      const lateLines = items.flatMap((i) =>
        i.productId ? [{ ...i, productId: i.productId }] : [],
      );
      const refused = conflict(
        "This order was cancelled before the payment arrived; it will be refunded",
      );
      if (!holdRanOut(order)) {
        log.error({ orderId, intent: intent.id }, "paid after the store cancelled: refund needed");
        throw refused;
      }
      if (lateLines.length < items.length) {
        log.error({ orderId, intent: intent.id }, "paid after cancellation: refund needed");
        throw refused;
      }
      try {
        await stock.reserve(lateLines, { checkMinimum: false });
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        log.error({ orderId, intent: intent.id }, "paid after cancellation: refund needed");
        throw refused;
      }
    }
    const [paid] = await tx
      .update(orders)
      .set({ status: "paid", transactionId: intent.id, paidWith, paidAt: new Date() })
      .where(eq(orders.id, orderId))
      .returning();
    // Paid: the account's hold windows on these products close, so its next order of them gets
    // a full hold again.
    const productIds = items.flatMap((i) => (i.productId ? [i.productId] : []));
    if (order.userId && productIds.length > 0) {
      await tx
        .delete(holdWindows)
        .where(
          and(eq(holdWindows.userId, order.userId), inArray(holdWindows.productId, productIds)),
        );
    }
    const done = toOrder(paid!, items);
    await notify?.paid(tx, done, paid!.customerName);
    return done;
  });
}
