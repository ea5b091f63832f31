import { and, desc, eq, inArray, ne, notInArray } from "drizzle-orm";
import { approvalMessages } from "../../contract/approvals";
import { paymentRefundMessages, type Intent, type RefundDue } from "../../contract/payments";
import {
  cancelledPaymentMessages,
  orderNumberText,
  type AdminOrderDetail,
  type Order,
} from "../../contract/orders";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { closeHoldWindows } from "../inventory/holds";
import { orderApprovals } from "../approvals/tables";
import { orders } from "../orders/tables";
import { payments, webhookEvents } from "./tables";
import { conflict, HttpError, notFound, unprocessable } from "../errors";
import type { Inventory, StockMoves } from "../inventory/service";
import type { Mailer } from "../mail/mailer";
import { paymentRefundedMail } from "./mail";
import { centsToUnits, formatCents } from "../money";
import { toOrder } from "../orders/service";
import { linesOf, lockOrder, markOrderPaid } from "../orders/state";
import type { OrderNotifier } from "../orders/notifier";
import type { IssuedInvoice } from "../invoices/issue";
import type { GatewayIntent, PaymentGateway } from "./gateway";

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Refunds of refund-due payments (docs/returns.md): the customer's email. */
export interface PaymentRefundOptions {
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
}

type PaymentRow = typeof payments.$inferSelect;

const toRefundDue = (r: PaymentRow): RefundDue => ({
  id: r.id,
  orderId: r.orderId,
  gateway: r.gateway,
  gatewayIntentId: r.gatewayIntentId,
  amount: centsToUnits(r.amountCents),
  currency: r.currency,
  reason: r.refundReason ?? "",
  since: r.updatedAt.toISOString(),
  status: r.status === "refunded" ? "refunded" : "refund_due",
  refundError: r.refundError,
  gatewayRefundId: r.gatewayRefundId,
  refundedAt: r.refundedAt?.toISOString() ?? null,
});

/** Issues a paid order's invoice inside the paying transaction (src/server/invoices/). */
export interface InvoiceIssuer {
  issue(tx: DbOrTx, orderId: string): Promise<IssuedInvoice>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notVerified = () =>
  unprocessable("The payment could not be verified. If you were charged, contact us.");

export function createPaymentService(
  db: Db,
  inventory: Inventory,
  gateway: PaymentGateway,
  log: Logger,
  notify?: OrderNotifier,
  invoices?: InvoiceIssuer,
  refundOpts: PaymentRefundOptions = { publicUrl: "" },
) {
  const loadOwnOrder = async (orderId: string, userId: string) => {
    const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!row || row.userId !== userId) throw notFound("Order not found");
    return row;
  };

  return {
    gateway: gateway.name,

    /** Opens a payment at the gateway for the order's amount, computed here, never sent in. */
    /** An order's payment intents, oldest first (the admin's order page). */
    async paymentsOf(orderId: string): Promise<AdminOrderDetail["payments"]> {
      const rows = await db
        .select()
        .from(payments)
        .where(eq(payments.orderId, orderId))
        .orderBy(payments.createdAt);
      return rows.map((p) => ({
        gateway: p.gateway,
        transactionId: p.gatewayIntentId,
        status: p.status,
        amount: centsToUnits(p.amountCents),
        currency: p.currency,
        createdAt: p.createdAt.toISOString(),
      }));
    },

    async createIntent(orderId: string, userId: string): Promise<Intent> {
      const order = await loadOwnOrder(orderId, userId);
      if (order.status === "paid" || order.status === "shipped") {
        throw conflict("This order is already paid");
      }
      if (order.status === "awaiting_approval") throw conflict(approvalMessages.payAfterApproval);
      if (order.status === "cancelled") {
        const [approval] = await db
          .select({ decision: orderApprovals.decision })
          .from(orderApprovals)
          .where(eq(orderApprovals.orderId, order.id));
        if (approval?.decision === "declined" || order.cancelReason === "declined") {
          throw conflict(approvalMessages.declined);
        }
        // Each cancellation its own words (an admin's cancel is not a hold that ran out).
        const reason =
          order.cancelReason ?? (holdRanOut(order) ? "hold_ran_out" : ("store" as const));
        throw unprocessable(cancelledPaymentMessages[reason]);
      }
      const intent = await gateway.createIntent({
        orderId: order.id,
        amountCents: order.totalCents,
        currency: order.currency,
        idempotencyKey: `order-${order.id}-${order.totalCents}-${order.currency}`,
      });
      await recordIntent(db, order.id, intent, gateway.name);
      return {
        clientSecret: intent.clientSecret,
        amount: centsToUnits(order.totalCents),
        currency: order.currency,
        gateway: gateway.name,
      };
    },

    /**
     * Cancels at the gateway the intents still open for an order the store cancelled, so that
     * none can be paid afterwards (a payment that arrives anyway is kept as refund due:
     * `markPaid`). After the cancel has committed; a gateway that fails is logged, not thrown.
     */
    async cancelIntentsOf(orderId: string): Promise<void> {
      const open = await db
        .select({ id: payments.id, intentId: payments.gatewayIntentId })
        .from(payments)
        .where(
          and(
            eq(payments.orderId, orderId),
            eq(payments.gateway, gateway.name),
            notInArray(payments.status, ["succeeded", "refund_due", "refunded", "canceled"]),
          ),
        );
      for (const p of open) {
        try {
          if (!(await gateway.cancelIntent(p.intentId))) continue; // paid meanwhile: see markPaid
          await db
            .update(payments)
            .set({ status: "canceled", updatedAt: new Date() })
            .where(eq(payments.id, p.id));
        } catch (err) {
          log.error({ err, orderId, intent: p.intentId }, "payments: cancelling an intent failed");
        }
      }
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
      if (order.status === "awaiting_approval") throw conflict(approvalMessages.payAfterApproval);
      const intent = await gateway.retrieveIntent(transactionId);
      if (!intent || !matches(intent, order)) throw notVerified();
      const outcome = await inventory.transaction((stock, tx) =>
        markPaid(stock, tx, order.id, intent, gateway.name, log, notify, invoices),
      );
      if ("refused" in outcome) throw outcome.refused;
      return outcome.order;
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

    /**
     * A verified gateway event, handled once: the event is recorded in the same transaction as
     * what it does (a replay, even a concurrent one, finds it and changes nothing; a failure
     * leaves it unrecorded, so the gateway's retry does the work). A payment the store cannot
     * apply is stored as refund due, and the event is answered as handled (the gateway stops
     * retrying; the money is in the admin's list, not only in a log).
     */
    async handleSucceededEvent(eventId: string, eventType: string, intent: GatewayIntent) {
      return inventory.transaction(async (stock, tx) => {
        const [fresh] = await tx
          .insert(webhookEvents)
          .values({ id: eventId, gateway: gateway.name, type: eventType })
          .onConflictDoNothing()
          .returning({ id: webhookEvents.id });
        if (!fresh) return "duplicate" as const;
        if (intent.status !== "succeeded") return "handled" as const;
        const [order] = intent.orderId
          ? await tx.select().from(orders).where(eq(orders.id, intent.orderId))
          : [];
        if (order && matches(intent, order)) {
          await markPaid(stock, tx, order.id, intent, gateway.name, log, notify, invoices);
        } else {
          const reason = order ? "the amount or currency differs" : "no such order";
          log.warn(
            { eventId, intent: intent.id, reason },
            "payment that fits no order: refund due",
          );
          await refundDue(tx, intent, gateway.name, order?.id ?? null, reason);
        }
        return "handled" as const;
      });
    },

    /**
     * Reconciliation (the recurring job, reconcile-job.ts): asks the gateway for the payments it
     * took since `since` and settles those the store never heard of (the customer's page and the
     * webhook both missed it: the store was down, the browser closed). One that fits its order is
     * applied as a confirmation would (`markPaid`, through the orders state machine); one that
     * cannot be (the store cancelled the order, the stock was sold, another amount, no such order)
     * is kept as refund due, as a late webhook's would. Answers how many it settled.
     */
    async reconcile(since: Date): Promise<number> {
      const taken = await gateway.listRecentPayments(since);
      if (taken.length === 0) return 0;
      const known = await db
        .select({ intentId: payments.gatewayIntentId })
        .from(payments)
        .where(
          and(
            inArray(
              payments.gatewayIntentId,
              taken.map((i) => i.id),
            ),
            inArray(payments.status, ["succeeded", "refund_due", "refunded"]),
          ),
        );
      const settled = new Set(known.map((k) => k.intentId));
      let n = 0;
      for (const intent of taken) {
        if (settled.has(intent.id) || intent.status !== "succeeded") continue;
        await inventory.transaction(async (stock, tx) => {
          const [order] =
            intent.orderId && UUID.test(intent.orderId)
              ? await tx.select().from(orders).where(eq(orders.id, intent.orderId))
              : [];
          if (!order || !matches(intent, order)) {
            const reason = order ? "the amount or currency differs" : "no such order";
            log.warn({ intent: intent.id, reason }, "reconciliation: a payment that fits no order");
            return refundDue(tx, intent, gateway.name, order?.id ?? null, reason);
          }
          // The intent's own row may be missing too (the store stopped as it opened it).
          await recordIntent(tx, order.id, intent, gateway.name);
          await markPaid(stock, tx, order.id, intent, gateway.name, log, notify, invoices);
        });
        log.warn({ intent: intent.id, orderId: intent.orderId }, "reconciliation: payment settled");
        n++;
      }
      return n;
    },

    /** Payments taken that the store could not apply: each is to be refunded (admin). */
    async refundsDue(): Promise<RefundDue[]> {
      const rows = await db
        .select()
        .from(payments)
        .where(eq(payments.status, "refund_due"))
        .orderBy(desc(payments.updatedAt));
      return rows.map(toRefundDue);
    },

    /**
     * Admin: gives a refund-due payment back in full through the gateway that took it, once.
     * The gateway is called outside any transaction with the payment's id in its idempotency key
     * (`payment-refund-<id>`), so two clicks, two admins at once, or a retry after a timeout
     * refund once; the outcome is written under the payment row's lock, and only the call that
     * moves it from `refund_due` to `refunded` writes the audit entry and queues the customer's
     * email (in that same transaction). A gateway failure leaves it `refund_due` with the
     * gateway's words in `refundError` (answered 200: the row says what happened), to retry.
     */
    async refundPayment(id: string, actor: AuditActor): Promise<RefundDue> {
      const [payment] = await db.select().from(payments).where(eq(payments.id, id));
      if (!payment) throw notFound(paymentRefundMessages.notFound);
      if (payment.status === "refunded") throw conflict(paymentRefundMessages.refundedAlready);
      if (payment.status !== "refund_due") {
        throw conflict(paymentRefundMessages.notDue(payment.status));
      }
      const what = `${formatCents(payment.amountCents, payment.currency.toUpperCase())} (${payment.gateway} ${payment.gatewayIntentId})`;
      let gatewayRefundId: string;
      try {
        if (payment.gateway !== gateway.name) {
          throw new HttpError(
            409,
            "refund_gateway",
            paymentRefundMessages.otherGateway(payment.gateway),
          );
        }
        const done = await gateway.refund({
          intentId: payment.gatewayIntentId,
          amountCents: payment.amountCents,
          idempotencyKey: `payment-refund-${payment.id}`,
        });
        if (done.status === "failed" || done.status === "canceled") {
          throw new HttpError(502, "refund_failed", `The gateway answered ${done.status}`);
        }
        gatewayRefundId = done.id;
      } catch (err) {
        const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
        log.error({ err, paymentId: id }, "payments: refunding a refund-due payment failed");
        return db.transaction(async (tx) => {
          const [fresh] = await tx.select().from(payments).where(eq(payments.id, id)).for("update");
          // Another call refunded it meanwhile (with the same key): that outcome stands.
          if (!fresh || fresh.status !== "refund_due") return toRefundDue(fresh!);
          const [failed] = await tx
            .update(payments)
            .set({ refundError: message })
            .where(eq(payments.id, id))
            .returning();
          await recordAdminAction(tx, {
            actor,
            action: "payment.refund_failed",
            target: { type: "payment", id },
            summary: `Refund of the payment ${what} failed: ${message}`,
          });
          return toRefundDue(failed!);
        });
      }
      return db.transaction(async (tx) => {
        const [fresh] = await tx.select().from(payments).where(eq(payments.id, id)).for("update");
        if (!fresh || fresh.status !== "refund_due") return toRefundDue(fresh!);
        const [done] = await tx
          .update(payments)
          .set({
            status: "refunded",
            gatewayRefundId,
            refundedAt: new Date(),
            refundError: null,
            updatedAt: new Date(),
          })
          .where(eq(payments.id, id))
          .returning();
        const [order] = fresh.orderId
          ? await tx.select().from(orders).where(eq(orders.id, fresh.orderId))
          : [];
        await recordAdminAction(tx, {
          actor,
          action: "payment.refund",
          target: { type: "payment", id },
          summary: `Refunded the payment ${what}${order ? ` for order ${orderNumberText(order.number)}` : ""}: ${fresh.refundReason ?? "refund due"}`,
        });
        if (order?.orderEmail && refundOpts.mailer) {
          const mail = paymentRefundedMail({
            name: order.customerName,
            orderId: order.id,
            orderNumber: orderNumberText(order.number),
            amount: formatCents(fresh.amountCents, fresh.currency.toUpperCase()),
            reason: fresh.refundReason ?? "it could not be applied",
            publicUrl: refundOpts.publicUrl,
          });
          await refundOpts.mailer.sendIn(
            tx,
            { to: order.orderEmail, ...mail },
            `payment-refunded:${id}`,
          );
        }
        return toRefundDue(done!);
      });
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;

/**
 * Whether a cancelled order was cancelled because its hold ran out (not by the store); told by
 * its recorded reason, or for an order cancelled before reasons were kept, by the times.
 */
function holdRanOut(order: typeof orders.$inferSelect): boolean {
  if (order.cancelReason) return order.cancelReason === "hold_ran_out";
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

/** A payment row's order and gateway intent: which intent, for how much. */
const intentRow = (
  orderId: string | null,
  intent: GatewayIntent,
  gatewayName: PaymentGateway["name"],
) => ({
  orderId,
  gateway: gatewayName,
  gatewayIntentId: intent.id,
  amountCents: intent.amountCents,
  currency: intent.currency,
});

/** An intent opened for an order, recorded once (a second time changes nothing). */
async function recordIntent(
  tx: DbOrTx,
  orderId: string,
  intent: GatewayIntent,
  gatewayName: PaymentGateway["name"],
) {
  await tx
    .insert(payments)
    .values({ ...intentRow(orderId, intent, gatewayName), status: intent.status })
    .onConflictDoNothing({ target: payments.gatewayIntentId });
}

/** A payment taken that the store cannot apply: stored with why, to be refunded. */
async function refundDue(
  tx: DbOrTx,
  intent: GatewayIntent,
  gatewayName: PaymentGateway["name"],
  orderId: string | null,
  reason: string,
) {
  await tx
    .insert(payments)
    .values({
      ...intentRow(orderId, intent, gatewayName),
      status: "refund_due",
      refundReason: reason,
    })
    .onConflictDoUpdate({
      target: payments.gatewayIntentId,
      set: { status: "refund_due", refundReason: reason, updatedAt: new Date() },
      // A payment refunded already stays refunded (the same payment confirmed again).
      setWhere: ne(payments.status, "refunded"),
    });
}

/**
 * Marks an order paid, once, in the caller's transaction: the order row is locked, so a payment
 * confirmed twice at once (the page and the webhook) records one payment. A payment that cannot
 * be applied is stored as refund due and answered as `refused` (the transaction still commits).
 */
async function markPaid(
  stock: StockMoves,
  tx: DbOrTx,
  orderId: string,
  intent: GatewayIntent,
  paidWith: PaymentGateway["name"],
  log: Logger,
  notify: OrderNotifier | undefined,
  invoices: InvoiceIssuer | undefined,
): Promise<{ order: Order } | { refused: HttpError }> {
  {
    const order = await lockOrder(tx, orderId);
    if (!order) throw notFound("Order not found");
    const refuse = async (refused: HttpError, reason: string) => {
      log.error({ orderId, intent: intent.id, reason }, "payment not applied: refund due");
      await refundDue(tx, intent, paidWith, orderId, reason);
      return { refused };
    };
    const items = await linesOf(tx, [orderId]);
    await tx
      .update(payments)
      .set({ status: "succeeded", updatedAt: new Date() })
      .where(and(eq(payments.gatewayIntentId, intent.id), ne(payments.status, "refunded")));
    if (order.status === "paid" || order.status === "shipped") {
      if (order.transactionId === intent.id) return { order: toOrder(order, items) };
      return refuse(conflict("This order is already paid"), "a second payment for a paid order");
    }
    if (order.status === "awaiting_approval") {
      // No payment can be opened for it (createIntent refuses), so this is not expected; the
      // money is not kept for an order nobody approved.
      return refuse(
        conflict(approvalMessages.payAfterApproval),
        "paid while the order awaited approval",
      );
    }
    if (order.status === "cancelled") {
      // The hold ran out while the customer paid: take every line's stock again if it is still
      // there (the minimum was met when the order was placed), its units on backorder waiting
      // again at the end of the queue, else nothing and a refund. An order the store cancelled
      // (an admin, an account removal) before its hold ran out stays cancelled whatever arrives.
      const lateLines = items.flatMap((i) =>
        i.productId ? [{ line: i.line, productId: i.productId, qty: i.qty }] : [],
      );
      const refused = conflict(
        "This order was cancelled before the payment arrived; it will be refunded",
      );
      if (!holdRanOut(order)) return refuse(refused, "paid after the store cancelled the order");
      if (lateLines.length < items.length) {
        return refuse(refused, "paid after the hold ran out; a product was deleted");
      }
      try {
        await stock.resume({ orderId: order.id, shipTo: order.shipTo }, lateLines);
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        return refuse(refused, "paid after the hold ran out; the stock was sold");
      }
    }
    const paid = await markOrderPaid(tx, orderId, { transactionId: intent.id, paidWith });
    // Paid: the account's hold windows on these products close, so its next order of them gets
    // a full hold again.
    const productIds = items.flatMap((i) => (i.productId ? [i.productId] : []));
    await closeHoldWindows(tx, order.userId, productIds);
    const done = toOrder(paid, items);
    // The invoice is issued with the payment, in this transaction: a payment that rolls back
    // leaves neither (nor a gap in the invoice numbers).
    const invoice = await invoices?.issue(tx, orderId);
    await notify?.paid(tx, done, paid.customerName, invoice);
    return { order: done };
  }
}
