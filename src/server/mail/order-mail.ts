import { eq } from "drizzle-orm";
import type { Order } from "../../contract/orders";
import { paths } from "../../contract/paths";
import { shippingCarrierLabels } from "../../contract/shipping-carriers";
import type { DbOrTx } from "../db/database";
import { notificationPreferences, orders } from "../db/schema";
import { formatCents, unitsToCents } from "../money";
import type { OrderNotifier } from "../orders/notifier";
import type { Mailer } from "./mailer";
import {
  holdExpiredMail,
  holdExpiringMail,
  orderCancelledMail,
  orderPlacedMail,
  orderShippedMail,
  paymentReceivedMail,
  type OrderMailFacts,
} from "./templates";

/** The order emails a customer may turn off (My Info); the others are always sent. */
export type OptionalOrderMail = "orderShipped" | "holdReminder";

/** A moment as the email says it: UTC, to the minute ("24 Nov 2026, 14:05 UTC"). */
export const mailTime = (iso: string) => {
  // Made once, at the first email: making an Intl formatter costs far more than using it, and
  // Intl's first use maps its locale data (about 6 MiB), which a process needs no sooner.
  mailTimeFormat ??= new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
    timeZone: "UTC",
  });
  return `${mailTimeFormat.format(new Date(iso))} UTC`;
};
let mailTimeFormat: Intl.DateTimeFormat | undefined;

/** What an order email says about the order (its lines, charges, total and its page). */
export const orderMailFacts = (order: Order, name: string, publicUrl: string): OrderMailFacts => ({
  name,
  orderId: order._id,
  lines: order.items.flatMap((l) => [
    {
      name: l.productName,
      qty: l.qty,
      amount: formatCents(unitsToCents(l.lineTotal), order.currency),
    },
    // A core deposit is its own line (docs/core-charges.md).
    ...(l.coreDeposit > 0
      ? [
          {
            name: `Core deposit: ${l.productName}`,
            qty: l.qty,
            amount: formatCents(unitsToCents(l.coreDeposit) * l.qty, order.currency),
          },
        ]
      : []),
  ]),
  charges:
    order.shipping > 0 || order.tax > 0 || order.shippingMethod
      ? [
          ["Subtotal", formatCents(unitsToCents(order.subtotal), order.currency)],
          [
            order.shippingMethod ? `Shipping (${order.shippingMethod})` : "Shipping",
            formatCents(unitsToCents(order.shipping), order.currency),
          ],
          [
            order.taxName ? `${order.taxName} (${order.taxRate} %)` : "Tax",
            formatCents(unitsToCents(order.tax), order.currency),
          ],
        ]
      : undefined,
  total: formatCents(unitsToCents(order.total), order.currency),
  taxNote: order.taxNote ?? undefined,
  // Unpaid: its payment page; otherwise (paid, awaiting approval…) the order's own page.
  url: `${publicUrl}${order.paid || order.status === "awaiting_approval" ? paths.order.to(order._id) : paths.payment.to(order._id)}`,
  publicUrl,
});

/**
 * The order emails, queued in the mail outbox with the transaction that changes the order: each
 * event's message has a key of its own (`order-placed:<id>`…), so it is queued once.
 */
export function createOrderMail(
  mailer: Pick<Mailer, "sendIn" | "queueSql">,
  publicUrl: string,
): OrderNotifier {
  const facts = (order: Order, name: string) => orderMailFacts(order, name, publicUrl);
  const placedMail = (order: Order, name: string) => ({
    to: order.orderEmail,
    ...orderPlacedMail({ ...facts(order, name), holdExpiresAt: mailTime(order.holdExpiresAt) }),
  });
  const placedKey = (order: Order) => `order-placed:${order._id}`;

  /** Whether the order's customer still wants this optional email (no choice saved: yes). */
  async function wanted(tx: DbOrTx, orderId: string, kind: OptionalOrderMail) {
    const [row] = await tx
      .select({
        orderShipped: notificationPreferences.orderShipped,
        holdReminder: notificationPreferences.holdReminder,
      })
      .from(orders)
      .leftJoin(notificationPreferences, eq(notificationPreferences.userId, orders.userId))
      .where(eq(orders.id, orderId));
    return row?.[kind] ?? true;
  }

  return {
    async placed(tx, order, name) {
      await mailer.sendIn(tx, placedMail(order, name), placedKey(order));
    },
    placedInsert: (order, name) => mailer.queueSql(placedMail(order, name), placedKey(order)),
    async paid(tx, order, name, invoice) {
      const mail = paymentReceivedMail({
        ...facts(order, name),
        transactionId: order.transactionId ?? "",
        testPayment: order.testPayment,
        invoiceNumber: invoice?.number,
      });
      await mailer.sendIn(
        tx,
        {
          to: order.orderEmail,
          ...mail,
          ...(invoice ? { attach: [{ kind: "invoice-pdf" as const, id: invoice.id }] } : {}),
        },
        `order-paid:${order._id}`,
      );
    },
    async shipped(tx, order, name) {
      if (!(await wanted(tx, order._id, "orderShipped"))) return;
      const mail = orderShippedMail({
        ...facts(order, name),
        tracking:
          order.carrier && order.trackingNumber
            ? {
                carrier: shippingCarrierLabels[order.carrier],
                number: order.trackingNumber,
                url: order.trackingUrl,
              }
            : undefined,
      });
      await mailer.sendIn(tx, { to: order.orderEmail, ...mail }, `order-shipped:${order._id}`);
    },
    async holdExpiring(tx, order, name) {
      if (!(await wanted(tx, order._id, "holdReminder"))) return;
      const mail = holdExpiringMail({
        ...facts(order, name),
        holdExpiresAt: mailTime(order.holdExpiresAt),
      });
      await mailer.sendIn(
        tx,
        { to: order.orderEmail, ...mail },
        `order-hold-expiring:${order._id}`,
      );
    },
    async holdExpired(tx, order, name, opts) {
      const mail = holdExpiredMail({ ...facts(order, name), notApproved: opts?.notApproved });
      await mailer.sendIn(tx, { to: order.orderEmail, ...mail }, `order-hold-expired:${order._id}`);
    },
    // Essential, like the hold-expiry one: the customer's order is gone and must be told so.
    async cancelledByStore(tx, order, name) {
      const mail = orderCancelledMail(facts(order, name));
      await mailer.sendIn(tx, { to: order.orderEmail, ...mail }, `order-cancelled:${order._id}`);
    },
  };
}
