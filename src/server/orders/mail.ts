import { discountLineLabel } from "../../contract/discount-codes";
import { dueDateWords, paymentWords } from "../../contract/payment-words";
import { vatIncludedWords } from "../../contract/tax";
import { eq } from "drizzle-orm";
import type { Order } from "../../contract/orders";
import { paths } from "../../contract/paths";
import { shippingCarrierLabels, type ShippingCarrier } from "../../contract/shipping-carriers";
import type { DbOrTx } from "../db/database";
import { notificationPreferences } from "../notifications/tables";
import { orders } from "./tables";
import { formatCents, unitsToCents } from "../money";
import type { OrderNotifier } from "./notifier";
import { backordersOf } from "../inventory/backorders";
import { backorderMessages } from "../../contract/backorders";
import { PLACED_NUMBER } from "./placement";
import type { Mailer } from "../mail/mailer";
import { hello, layout, STORE, type MailContent } from "../mail/layout";

/** The order emails a customer may turn off (My Info); the others are always sent. */
export type OptionalOrderMail = "orderShipped" | "holdReminder";

/**
 * A moment as the email says it: UTC, to the minute, its day as every page says one ("24 Nov 2026,
 * 14:05 UTC"; Intl's en-GB wrote September "Sept", where the pages write "Sep").
 */
export const mailTime = (iso: string) => {
  const d = new Date(iso);
  const twoDigits = (n: number) => String(n).padStart(2, "0");
  return `${dueDateWords(d)}, ${twoDigits(d.getUTCHours())}:${twoDigits(d.getUTCMinutes())} UTC`;
};

/** A parcel's tracking as a shipping email tells it: the carrier's name, the number, its page. */
export interface MailTracking {
  carrier: string;
  number: string;
  url: string | null;
}

/** An order's or a shipment's tracking for its email, when the admin gave a carrier and a number. */
export const mailTracking = (t: {
  carrier: ShippingCarrier | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
}): MailTracking | undefined =>
  t.carrier && t.trackingNumber
    ? { carrier: shippingCarrierLabels[t.carrier], number: t.trackingNumber, url: t.trackingUrl }
    : undefined;

/** The sentence a shipping email says of the parcel's tracking (none without it). */
export const trackingParagraphs = (t: MailTracking | undefined): string[] =>
  t ? [`It travels with ${t.carrier}, tracking number ${t.number}.`] : [];

/** The link a shipping email gives to the carrier's page of the parcel, when there is one. */
export const trackingLinks = (t: MailTracking | undefined) =>
  t?.url ? [{ label: "Track your parcel", url: t.url }] : undefined;

/** What an order email says about the order (its lines, charges, total and its page). */
export const orderMailFacts = (order: Order, name: string, publicUrl: string): OrderMailFacts => ({
  name,
  orderId: order._id,
  orderNumber: order.number,
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
    order.shipping > 0 || order.tax > 0 || order.shippingMethod || order.discount
      ? [
          ["Subtotal", formatCents(unitsToCents(order.subtotal), order.currency)],
          ...(order.discount
            ? [
                [
                  discountLineLabel(order.discount.code),
                  `−${formatCents(unitsToCents(order.discount.amount), order.currency)}`,
                ] as [string, string],
              ]
            : []),
          [
            order.shippingMethod ? `Shipping (${order.shippingMethod})` : "Shipping",
            formatCents(unitsToCents(order.shipping), order.currency),
          ],
          // Gross prices contain their VAT: said under the total instead (docs/tax.md).
          ...(order.pricesIncludeTax
            ? []
            : [
                [
                  order.taxName ? `${order.taxName} (${order.taxRate} %)` : "Tax",
                  formatCents(unitsToCents(order.tax), order.currency),
                ] as [string, string],
              ]),
        ]
      : undefined,
  total: formatCents(unitsToCents(order.total), order.currency),
  vatIncluded: order.pricesIncludeTax
    ? [
        vatIncludedWords.label(order.taxRate ?? 0),
        formatCents(unitsToCents(order.tax), order.currency),
      ]
    : undefined,
  taxNote: order.taxNote ?? undefined,
  payment: order.account ? paymentWords(order).line : undefined,
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
  const placedMail = (order: Order, name: string, backorders?: string[], delivery?: string) => ({
    to: order.orderEmail,
    ...orderPlacedMail({
      ...facts(order, name),
      holdExpiresAt: mailTime(order.holdExpiresAt),
      backorders,
      delivery,
    }),
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
    async placed(tx, order, name, delivery) {
      // A checkout that put units on backorder says which and until when (docs/inventory.md).
      const waiting = ((await backordersOf(tx, [order._id])).get(order._id) ?? []).map(
        (b) =>
          `${order.items[b.line - 1]?.productName}: ${backorderMessages.waiting(b.waiting, b.promisedOn)}`,
      );
      await mailer.sendIn(tx, placedMail(order, name, waiting, delivery), placedKey(order));
    },
    // Written before the order's insert takes its number: the statement fills it in.
    placedInsert: (order, name, delivery) =>
      mailer.queueSql(
        placedMail(
          { ...order, number: order.number.replace(/\d+$/, PLACED_NUMBER.token) },
          name,
          [],
          delivery,
        ),
        placedKey(order),
        PLACED_NUMBER,
      ),
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
        tracking: mailTracking(order),
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

/** What an order email says about the order. */
export interface OrderMailFacts {
  name: string;
  orderId: string;
  /** The number the customer reads (`PW-100234`). */
  orderNumber: string;
  /** The order's lines as sold, with their amounts already formatted. */
  lines: { name: string; qty: number; amount: string }[];
  /** Shipping and tax rows ("Shipping (Express)", "Texas sales tax (6.25 %)"), when charged. */
  charges?: [string, string][];
  total: string;
  /**
   * A consumer's order with VAT included (docs/tax.md): the row under the total, ["Includes VAT
   * (19 %)", "€8.31"], the VAT its gross total contains. Absent: the tax is a row of `charges`.
   */
  vatIncluded?: [string, string];
  /** The order's tax note: reverse charge's legal note, or the exemption (as on the invoice). */
  taxNote?: string;
  /** The order's page on the store. */
  url: string;
  publicUrl: string;
  /**
   * An order on account: its money in words ("On account · invoice … due …", or "Paid · invoice
   * …": payment-words.ts), a row of every email's table about it. Card orders: none.
   */
  payment?: string;
}

export const linesTable = (o: OrderMailFacts): [string, string][] => [
  ...o.lines.map((l): [string, string] => [`${l.qty} × ${l.name}`, l.amount]),
  ...(o.charges ?? []),
  ["Total", o.total],
  ...(o.vatIncluded ? [o.vatIncluded] : []),
  ...(o.payment ? [["Payment", o.payment] as [string, string]] : []),
];
export const viewOrder = (o: { url: string }) => ({ label: "View your order", url: o.url });

export function orderPlacedMail(
  o: OrderMailFacts & {
    holdExpiresAt: string;
    /** Its lines' units on backorder, as "Brake pads: 6 on backorder · expected 12 Jan 2027". */
    backorders?: string[];
    /** The window the checkout promised: "Arrives 9–11 Dec 2026 · ships from Chicago warehouse". */
    delivery?: string;
  },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} is placed`,
    greeting: hello(o.name),
    paragraphs: [
      `Thank you for your order ${o.orderNumber}. We hold its parts for you until ${o.holdExpiresAt}; please pay before then.`,
      ...(o.backorders?.length
        ? [`Not in stock yet, shipped as soon as they arrive: ${o.backorders.join("; ")}.`]
        : []),
      ...(o.delivery ? [`Delivery: ${o.delivery}.`] : []),
      ...(o.taxNote ? [o.taxNote] : []),
    ],
    table: linesTable(o),
    action: { label: "Pay for your order", url: o.url },
    publicUrl: o.publicUrl,
  });
}

/** Said on every email about an order paid with a test card. */
export const TEST_PAYMENT_NOTICE =
  "TEST payment: this order was paid with a test card; no money was taken.";

export function paymentReceivedMail(
  o: OrderMailFacts & { transactionId: string; testPayment: boolean; invoiceNumber?: string },
): MailContent {
  return layout({
    subject: `Payment received for your ${STORE} order ${o.orderNumber}`,
    greeting: hello(o.name),
    paragraphs: [
      ...(o.testPayment ? [TEST_PAYMENT_NOTICE] : []),
      `We received your payment of ${o.total} for order ${o.orderNumber}. Transaction id: ${o.transactionId}.`,
      ...(o.taxNote ? [o.taxNote] : []),
      ...(o.invoiceNumber ? [`Your invoice ${o.invoiceNumber} is attached (PDF).`] : []),
      "We will email you again when it ships.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

export function orderShippedMail(
  o: OrderMailFacts & {
    /** The carrier's name and the tracking number, when the admin gave them. */
    tracking?: MailTracking;
  },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} has shipped`,
    greeting: hello(o.name),
    paragraphs: [`Your order ${o.orderNumber} is on its way.`, ...trackingParagraphs(o.tracking)],
    links: trackingLinks(o.tracking),
    table: linesTable(o),
    action: viewOrder(o),
    after: [`You can turn off shipping emails in My Info: ${o.publicUrl}${paths.dashboard}`],
    publicUrl: o.publicUrl,
  });
}

export function holdExpiringMail(o: OrderMailFacts & { holdExpiresAt: string }): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} is held until ${o.holdExpiresAt}`,
    greeting: hello(o.name),
    paragraphs: [
      `Your order ${o.orderNumber} is not paid yet. We hold its parts until ${o.holdExpiresAt}; after that the order is cancelled and the parts go back on sale.`,
    ],
    table: linesTable(o),
    action: { label: "Pay for your order", url: o.url },
    after: [`You can turn off these reminders in My Info: ${o.publicUrl}${paths.dashboard}`],
    publicUrl: o.publicUrl,
  });
}

export function holdExpiredMail(o: OrderMailFacts & { notApproved?: boolean }): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} was cancelled`,
    greeting: hello(o.name),
    paragraphs: [
      o.notApproved
        ? `Your order ${o.orderNumber} was not approved by your company's owners before its hold ended, so we cancelled it and its parts went back on sale. Nothing was charged.`
        : `Your order ${o.orderNumber} was not paid before its hold ended, so we cancelled it and its parts went back on sale. Nothing was charged.`,
      "You are welcome to order the parts again.",
    ],
    table: linesTable(o),
    action: { label: "Visit the store", url: o.publicUrl },
    publicUrl: o.publicUrl,
  });
}

export function orderCancelledMail(o: OrderMailFacts): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} was cancelled`,
    greeting: hello(o.name),
    paragraphs: [
      `We cancelled your unpaid order ${o.orderNumber} and its parts went back on sale. Nothing was charged.`,
      "If you did not expect this, please contact us. You are welcome to order the parts again.",
    ],
    table: linesTable(o),
    action: { label: "Visit the store", url: o.publicUrl },
    publicUrl: o.publicUrl,
  });
}
