import { dateWords } from "./calendar";
import { orderStatusLabels, type Order } from "./orders";

/**
 * The one place an order's money state becomes words (docs/terms.md "What an order says about
 * its money"): the badge of lists and the order page, and the line of the order page and the
 * emails. An order on account is "paid" to the order model (accepted, to be shipped) but not to
 * the buyer or the accountant: it reads "On account · invoice … due …" until its invoice is paid.
 */
export type PaymentState = Pick<Order, "status" | "account"> &
  Partial<Pick<Order, "warrantyClaim">>;

export interface PaymentWords {
  /**
   * The badge: "Unpaid", "Awaiting approval", "On account", "Credited", "No charge", "Paid",
   * "Shipped", "Cancelled".
   */
  badge: string;
  /** The sentence: "On account · invoice INV-2026-000123 due 26 Dec 2026", "Paid", … */
  line: string;
}

/** A due date as every page and email says it: "26 Dec 2026" (UTC: the invoice's own day). */
export function dueDateWords(at: string | Date): string {
  const d = typeof at === "string" ? new Date(at) : at;
  return dateWords(d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear());
}

export const ON_ACCOUNT_LABEL = "On account";
/** An order on account whose invoice credit notes cancelled in full: nothing was paid or is due. */
export const CREDITED_LABEL = "Credited";

/** A warranty claim's replacement: nothing was paid and nothing is due. */
export const NO_CHARGE_LABEL = "No charge";

export function paymentWords(order: PaymentState): PaymentWords {
  if (order.warrantyClaim && (order.status === "paid" || order.status === "shipped")) {
    const line = `${NO_CHARGE_LABEL} · warranty replacement for claim ${order.warrantyClaim}`;
    return { badge: order.status === "paid" ? NO_CHARGE_LABEL : orderStatusLabels.shipped, line };
  }
  const account = order.account;
  const owing = account !== null && !account.settled;
  const credited = account !== null && account.settled && account.creditedInFull;
  const paidLine = account
    ? owing
      ? `${ON_ACCOUNT_LABEL} · invoice ${account.invoiceNumber} due ${dueDateWords(account.dueAt)}`
      : credited
        ? `Nothing due · invoice ${account.invoiceNumber} credited in full`
        : `Paid · invoice ${account.invoiceNumber}`
    : "Paid";
  switch (order.status) {
    case "paid":
      return {
        badge: owing ? ON_ACCOUNT_LABEL : credited ? CREDITED_LABEL : orderStatusLabels.paid,
        line: paidLine,
      };
    case "shipped":
      // Shipped says where the parts are; the line still says whether the invoice is paid.
      return { badge: orderStatusLabels.shipped, line: paidLine };
    case "unpaid":
      return { badge: orderStatusLabels.unpaid, line: "Not paid yet" };
    case "awaiting_approval":
      return {
        badge: orderStatusLabels.awaiting_approval,
        line: "Awaiting approval by your company's owners: not charged yet",
      };
    case "cancelled":
      return { badge: orderStatusLabels.cancelled, line: "Cancelled: nothing is due" };
  }
}

/** How a company on net terms pays, said at checkout (and the order dialog) before it is placed. */
export const onAccountCheckoutWords = (days: number) =>
  `${ON_ACCOUNT_LABEL}: invoice due in ${days} days. No card needed: the order is charged to your company's account and paid by bank transfer against its invoice.`;
